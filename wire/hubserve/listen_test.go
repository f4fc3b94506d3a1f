package hubserve

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testcert"
)

// The hub's page goes beyond loopback only over TLS or when told the
// network is encrypted; a certificate is read before anything binds, and
// what is wrong with it names the flag and the file.
func TestHubListenCheck(t *testing.T) {
	cert, key, _ := testcert.Write(t)
	_, otherKey, _ := testcert.Write(t)
	oldCert, oldKey := testcert.Expired(t)
	missing := filepath.Join(t.TempDir(), "missing.pem")
	for _, c := range []struct {
		name   string
		l      Listen
		remote bool
		tls    bool
		err    []string
	}{
		{name: "loopback", l: Listen{Addr: "127.0.0.1:7683"}},
		{name: "localhost", l: Listen{Addr: "localhost:0"}},
		{name: "loopback over TLS", l: Listen{Addr: "127.0.0.1:0", CertFile: cert, KeyFile: key}, tls: true},
		{name: "LAN over TLS", l: Listen{Addr: "0.0.0.0:7683", CertFile: cert, KeyFile: key}, remote: true, tls: true},
		{name: "tailnet, plain HTTP allowed", l: Listen{Addr: "100.64.1.2:7683", AllowHTTP: true}, remote: true},
		{name: "all interfaces without TLS", l: Listen{Addr: "0.0.0.0:7683"}, err: []string{`"0.0.0.0:7683"`, "--tls-cert", "--tls-key", "--allow-remote-http"}},
		{name: "empty host is every interface", l: Listen{Addr: ":7683"}, err: []string{"--allow-remote-http"}},
		{name: "no port", l: Listen{Addr: "127.0.0.1"}, err: []string{"--listen", "host:port"}},
		{name: "cert alone", l: Listen{Addr: "0.0.0.0:7683", CertFile: cert}, err: []string{"--tls-cert is given without --tls-key"}},
		{name: "key alone", l: Listen{Addr: "127.0.0.1:0", KeyFile: key}, err: []string{"--tls-key is given without --tls-cert"}},
		{name: "missing cert", l: Listen{Addr: "0.0.0.0:7683", CertFile: missing, KeyFile: key}, err: []string{"--tls-cert " + missing + ": no such file"}},
		{name: "missing key", l: Listen{Addr: "0.0.0.0:7683", CertFile: cert, KeyFile: missing}, err: []string{"--tls-key " + missing + ": no such file"}},
		{name: "key as cert", l: Listen{Addr: "0.0.0.0:7683", CertFile: key, KeyFile: key}, err: []string{"--tls-cert " + key, "not a PEM certificate"}},
		{name: "cert as key", l: Listen{Addr: "0.0.0.0:7683", CertFile: cert, KeyFile: cert}, err: []string{"--tls-key " + cert}},
		{name: "another key", l: Listen{Addr: "0.0.0.0:7683", CertFile: cert, KeyFile: otherKey}, err: []string{"--tls-key " + otherKey, "is not the key of --tls-cert " + cert}},
		{name: "expired", l: Listen{Addr: "0.0.0.0:7683", CertFile: oldCert, KeyFile: oldKey}, err: []string{"--tls-cert " + oldCert + " expired on"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			remote, cfg, err := c.l.Check()
			if c.err != nil {
				require.Error(t, err)
				for _, s := range c.err {
					assert.Contains(t, err.Error(), s)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.remote, remote)
			assert.Equal(t, c.tls, cfg != nil)
		})
	}
}

// A certificate before its NotBefore is refused as an expired one is: a
// browser would refuse it too, and a clock set wrong should be told.
func TestHubRefusesACertificateNotYetValid(t *testing.T) {
	cert, key := testcert.NotYetValid(t)
	_, _, err := (&Listen{Addr: "0.0.0.0:7683", CertFile: cert, KeyFile: key}).Check()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--tls-cert "+cert+" is not valid before")
}
