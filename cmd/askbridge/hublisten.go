package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"path/filepath"

	"github.com/askbridge/askbridge/internal/hubserve"
)

// hubListen are the hub's flags about where its page listens and how a
// phone on the same tailnet or LAN reaches it.
type hubListen struct {
	addr, certFile, keyFile string
	allowHTTP, qr           bool
}

func (l *hubListen) flags(fs *flag.FlagSet) {
	fs.StringVar(&l.addr, "listen", defaultHubListen, "serve the hub's page and API on this address (127.0.0.1:0 picks a port); beyond loopback only with --tls-cert and --tls-key, or --allow-remote-http")
	fs.StringVar(&l.certFile, "tls-cert", "", "serve the page over HTTPS with this PEM `file` of a certificate (and its chain), with --tls-key; e.g. from tailscale cert")
	fs.StringVar(&l.keyFile, "tls-key", "", "the PEM `file` of --tls-cert's private key")
	fs.BoolVar(&l.allowHTTP, "allow-remote-http", false, "let --listen go beyond loopback without TLS, on a network that is already encrypted (a tailnet, WireGuard): sessions then travel in clear text, and no passkey works")
	fs.BoolVar(&l.qr, "qr", false, "print a QR code of the pairing link (--public-url's address when given) for a phone, on the hub's terminal only; printed anyway when --listen goes beyond loopback")
}

// check validates the flags before anything binds. It says whether the
// page listens beyond loopback, and loads the certificate (nil: plain
// HTTP). The files' paths become absolute, for --print-unit's unit, which
// starts elsewhere.
func (l *hubListen) check() (remote bool, cfg *tls.Config, err error) {
	for _, file := range []*string{&l.certFile, &l.keyFile} {
		if *file != "" {
			*file, _ = filepath.Abs(*file)
		}
	}
	host, _, err := net.SplitHostPort(l.addr)
	if err != nil {
		return false, nil, fmt.Errorf("--listen %q: want host:port, e.g. %s", l.addr, defaultHubListen)
	}
	remote = !loopback(host)
	switch {
	case l.keyFile == "" && l.certFile != "":
		return false, nil, fmt.Errorf("--tls-cert is given without --tls-key: --tls-cert and --tls-key go together")
	case l.certFile == "" && l.keyFile != "":
		return false, nil, fmt.Errorf("--tls-key is given without --tls-cert: --tls-cert and --tls-key go together")
	case l.certFile != "":
		cfg, err = hubserve.LoadTLS(l.certFile, l.keyFile)
		return remote, cfg, err
	case remote && !l.allowHTTP:
		return false, nil, fmt.Errorf("--listen %q is beyond loopback: give --tls-cert and --tls-key to serve the page over HTTPS, or --allow-remote-http on a network that is already encrypted", l.addr)
	}
	return remote, nil, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
