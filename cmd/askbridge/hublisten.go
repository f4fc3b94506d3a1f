package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
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
		cfg, err = loadTLS(l.certFile, l.keyFile)
		return remote, cfg, err
	case remote && !l.allowHTTP:
		return false, nil, fmt.Errorf("--listen %q is beyond loopback: give --tls-cert and --tls-key to serve the page over HTTPS, or --allow-remote-http on a network that is already encrypted", l.addr)
	}
	return remote, nil, nil
}

// loadTLS reads a PEM certificate and key, naming the flag and file of
// whichever is wrong.
func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s: %v", certFile, pathless(err))
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-key %s: %v", keyFile, pathless(err))
	}
	if !hasCertificate(certPEM) {
		return nil, fmt.Errorf("--tls-cert %s: not a PEM certificate (no BEGIN CERTIFICATE block)", certFile)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	switch {
	case err != nil && strings.Contains(err.Error(), "does not match"):
		return nil, fmt.Errorf("--tls-key %s is not the key of --tls-cert %s: %v", keyFile, certFile, err)
	case err != nil:
		return nil, fmt.Errorf("--tls-key %s: not a PEM private key for --tls-cert %s: %v", keyFile, certFile, err)
	case time.Now().Before(cert.Leaf.NotBefore):
		return nil, fmt.Errorf("--tls-cert %s is not valid before %s: check this machine's clock, or wait", certFile, cert.Leaf.NotBefore.UTC().Format(time.RFC3339))
	case time.Now().After(cert.Leaf.NotAfter):
		return nil, fmt.Errorf("--tls-cert %s expired on %s: renew it", certFile, cert.Leaf.NotAfter.Format(time.DateOnly))
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// pathless is err without the path the message names already.
func pathless(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such file") // the same words on every OS
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func hasCertificate(data []byte) bool {
	for {
		var block *pem.Block
		if block, data = pem.Decode(data); block == nil {
			return false
		}
		if block.Type == "CERTIFICATE" {
			return true
		}
	}
}

// warnClearText says, at every start and whatever --log-level, that
// sessions cross the network unencrypted.
func warnClearText(stderr io.Writer, addr string) {
	slog.New(slog.NewTextHandler(stderr, nil)).Warn("hub: --allow-remote-http: the page is served beyond loopback over plain HTTP; pairing codes and sessions travel in clear text, whoever reads this network's traffic can answer your agents' questions, and no browser makes a passkey for plain HTTP: use it only on a network that is already encrypted (a tailnet, WireGuard), else --tls-cert and --tls-key", "listen", addr)
}

func certHost(leaf *x509.Certificate) string {
	for _, name := range leaf.DNSNames {
		if !strings.HasPrefix(name, "*") {
			return name
		}
	}
	for _, ip := range leaf.IPAddresses {
		if !ip.IsLoopback() {
			return ip.String()
		}
	}
	return ""
}

// qrColor says whether the QR code gets its ANSI colors: on a terminal,
// unless NO_COLOR is set (https://no-color.org) or TERM is dumb, which
// takes no escape sequences. The half blocks stay: they need none.
func qrColor(terminal bool, getenv func(string) string) bool {
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}
