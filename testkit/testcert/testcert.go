package testcert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Write writes a certificate for 127.0.0.1 (an IP SAN) and its key as PEM
// files in a temporary folder of t, and returns their paths and a pool
// that trusts the certificate.
func Write(t testing.TB) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	return write(t, time.Now().Add(time.Hour))
}

// Expired is Write's certificate, expired an hour ago.
func Expired(t testing.TB) (certFile, keyFile string) {
	t.Helper()
	certFile, keyFile, _ = write(t, time.Now().Add(-time.Hour))
	return certFile, keyFile
}

// NotYetValid is Write's certificate, valid from an hour from now.
func NotYetValid(t testing.TB) (certFile, keyFile string) {
	t.Helper()
	certFile, keyFile, _ = write(t, time.Now().Add(3*time.Hour))
	return certFile, keyFile
}

func write(t testing.TB, notAfter time.Time) (certFile, keyFile string, pool *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "askbridge test"},
		NotBefore:    notAfter.Add(-2 * time.Hour),
		NotAfter:     notAfter,
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}
