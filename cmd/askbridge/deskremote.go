package main

import (
	"fmt"
	"net"

	"github.com/askbridge/askbridge/wire/hubserve"
)

// checkDesk refuses a --desk beyond loopback unless both
// --desk-allow-remote and --desk-allow-remote-http say so: the desk has no
// TLS, so there everything it serves, its credentials too, crosses the
// network in clear text. The hub, with --tls-cert, is the way to reach
// questions from another machine.
func (o *proxyOptions) checkDesk() error {
	if o.desk == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(o.desk)
	if err != nil || hubserve.Loopback(host) {
		return nil // desk.Listen names a malformed address
	}
	switch {
	case !o.deskAllowRemote:
		return fmt.Errorf("--desk %q: the desk listens on loopback only (127.0.0.1, ::1, localhost) unless --desk-allow-remote", o.desk)
	case !o.deskAllowRemoteHTTP:
		return fmt.Errorf("--desk %q is beyond loopback, where the desk would serve plain HTTP: add --desk-allow-remote-http on a network that is already encrypted (a tailnet, WireGuard), or use `askbridge hub --listen ADDR --tls-cert FILE --tls-key FILE`", o.desk)
	}
	return nil
}
