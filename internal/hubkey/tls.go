package hubkey

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// ALPN names the protocol on the hub's socket once TLS is up, and its
// version: the JSON lines of a reporting askbridge and of `hub pair`
// (hub/2), the inbox's HTTP (inbox/2).
const (
	ALPNHub   = "askbridge-hub/2"
	ALPNInbox = "askbridge-inbox/2"
)

// serverName is the name in the hub's certificate: nothing checks it, the
// key is what is trusted.
const serverName = "askbridge-hub"

// ErrNotTrusted is a hub whose certificate does not carry the key the
// client trusts.
var ErrNotTrusted = errors.New("it does not hold the hub's key")

// ServerTLS is the hub's side: a certificate of its own key, made now,
// TLS 1.3 only, speaking protos.
func (k *Key) ServerTLS(protos ...string) (*tls.Config, error) {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: serverName},
		DNSNames:     []string{serverName},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(100 * 365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, k.Public(), k.priv)
	if err != nil {
		return nil, fmt.Errorf("the hub's certificate: %w", err)
	}
	cert := tls.Certificate{Certificate: [][]byte{der}, PrivateKey: k.priv}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS13, NextProtos: protos}, nil
}

// ClientTLS is a client's side: it goes on only with a hub whose
// certificate's key is trusted. The certificate itself is not what is
// believed (it is the hub's own, signed by itself): TLS 1.3 has the hub
// sign the handshake, the client's fresh random and the key exchange
// included, with that key, so only the holder of the private key passes,
// and only on this very connection.
func ClientTLS(trusted ed25519.PublicKey, proto string) *tls.Config {
	return &tls.Config{
		ServerName:         serverName,
		MinVersion:         tls.VersionTLS13,
		NextProtos:         []string{proto},
		InsecureSkipVerify: true, // no CA vouches for the hub: VerifyConnection holds it to the key
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return ErrNotTrusted
			}
			pub, ok := cs.PeerCertificates[0].PublicKey.(ed25519.PublicKey)
			if !ok || subtle.ConstantTimeCompare(pub, trusted) != 1 {
				return fmt.Errorf("%w (%s)", ErrNotTrusted, Fingerprint(trusted))
			}
			if cs.NegotiatedProtocol != proto {
				return fmt.Errorf("the hub does not speak %s: is it older than this askbridge?", proto)
			}
			return nil
		},
	}
}
