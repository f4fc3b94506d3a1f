package hubserve

import (
	"crypto/tls"
	"flag"
	"fmt"
	"net"
	"path/filepath"
)

// DefaultListen is a fixed port, so that the hub's address can be
// bookmarked.
const DefaultListen = "127.0.0.1:7683"

// Listen are the hub's flags about where its page listens and how a
// phone on the same tailnet or LAN reaches it.
type Listen struct {
	Addr, CertFile, KeyFile string
	AllowHTTP, QR           bool
}

// Flags sets the flags on fs.
func (l *Listen) Flags(fs *flag.FlagSet) {
	fs.StringVar(&l.Addr, "listen", DefaultListen, "serve the hub's page and API on this address (127.0.0.1:0 picks a port); beyond loopback only with --tls-cert and --tls-key, or --allow-remote-http")
	fs.StringVar(&l.CertFile, "tls-cert", "", "serve the page over HTTPS with this PEM `file` of a certificate (and its chain), with --tls-key; e.g. from tailscale cert")
	fs.StringVar(&l.KeyFile, "tls-key", "", "the PEM `file` of --tls-cert's private key")
	fs.BoolVar(&l.AllowHTTP, "allow-remote-http", false, "let --listen go beyond loopback without TLS, on a network that is already encrypted (a tailnet, WireGuard): sessions then travel in clear text, and no passkey works")
	fs.BoolVar(&l.QR, "qr", false, "print a QR code of the pairing link (--public-url's address when given) for a phone, on the hub's terminal only; printed anyway when --listen goes beyond loopback")
}

// Check validates the flags before anything binds. It says whether the
// page listens beyond loopback, and loads the certificate (nil: plain
// HTTP). The files' paths become absolute, for --print-unit's unit, which
// starts elsewhere.
func (l *Listen) Check() (remote bool, cfg *tls.Config, err error) {
	for _, file := range []*string{&l.CertFile, &l.KeyFile} {
		if *file != "" {
			*file, _ = filepath.Abs(*file)
		}
	}
	host, _, err := net.SplitHostPort(l.Addr)
	if err != nil {
		return false, nil, fmt.Errorf("--listen %q: want host:port, e.g. %s", l.Addr, DefaultListen)
	}
	remote = !Loopback(host)
	switch {
	case l.KeyFile == "" && l.CertFile != "":
		return false, nil, fmt.Errorf("--tls-cert is given without --tls-key: --tls-cert and --tls-key go together")
	case l.CertFile == "" && l.KeyFile != "":
		return false, nil, fmt.Errorf("--tls-key is given without --tls-cert: --tls-cert and --tls-key go together")
	case l.CertFile != "":
		cfg, err = LoadTLS(l.CertFile, l.KeyFile)
		return remote, cfg, err
	case remote && !l.AllowHTTP:
		return false, nil, fmt.Errorf("--listen %q is beyond loopback: give --tls-cert and --tls-key to serve the page over HTTPS, or --allow-remote-http on a network that is already encrypted", l.Addr)
	}
	return remote, nil, nil
}

// Loopback says whether host is this machine's loopback (localhost or a
// loopback IP).
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
