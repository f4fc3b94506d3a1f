package hubserve

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"
)

// LoadTLS reads a PEM certificate and key, naming the flag and file of
// whichever is wrong.
func LoadTLS(certFile, keyFile string) (*tls.Config, error) {
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

// WarnClearText says, at every start and whatever --log-level, that
// sessions cross the network unencrypted.
func WarnClearText(stderr io.Writer, addr string) {
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
