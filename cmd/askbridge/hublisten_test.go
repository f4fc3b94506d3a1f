package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/testcert"
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
		l      hubListen
		remote bool
		tls    bool
		err    []string
	}{
		{name: "loopback", l: hubListen{addr: "127.0.0.1:7683"}},
		{name: "localhost", l: hubListen{addr: "localhost:0"}},
		{name: "loopback over TLS", l: hubListen{addr: "127.0.0.1:0", certFile: cert, keyFile: key}, tls: true},
		{name: "LAN over TLS", l: hubListen{addr: "0.0.0.0:7683", certFile: cert, keyFile: key}, remote: true, tls: true},
		{name: "tailnet, plain HTTP allowed", l: hubListen{addr: "100.64.1.2:7683", allowHTTP: true}, remote: true},
		{name: "all interfaces without TLS", l: hubListen{addr: "0.0.0.0:7683"}, err: []string{`"0.0.0.0:7683"`, "--tls-cert", "--tls-key", "--allow-remote-http"}},
		{name: "empty host is every interface", l: hubListen{addr: ":7683"}, err: []string{"--allow-remote-http"}},
		{name: "no port", l: hubListen{addr: "127.0.0.1"}, err: []string{"--listen", "host:port"}},
		{name: "cert alone", l: hubListen{addr: "0.0.0.0:7683", certFile: cert}, err: []string{"--tls-cert is given without --tls-key"}},
		{name: "key alone", l: hubListen{addr: "127.0.0.1:0", keyFile: key}, err: []string{"--tls-key is given without --tls-cert"}},
		{name: "missing cert", l: hubListen{addr: "0.0.0.0:7683", certFile: missing, keyFile: key}, err: []string{"--tls-cert " + missing + ": no such file"}},
		{name: "missing key", l: hubListen{addr: "0.0.0.0:7683", certFile: cert, keyFile: missing}, err: []string{"--tls-key " + missing + ": no such file"}},
		{name: "key as cert", l: hubListen{addr: "0.0.0.0:7683", certFile: key, keyFile: key}, err: []string{"--tls-cert " + key, "not a PEM certificate"}},
		{name: "cert as key", l: hubListen{addr: "0.0.0.0:7683", certFile: cert, keyFile: cert}, err: []string{"--tls-key " + cert}},
		{name: "another key", l: hubListen{addr: "0.0.0.0:7683", certFile: cert, keyFile: otherKey}, err: []string{"--tls-key " + otherKey, "is not the key of --tls-cert " + cert}},
		{name: "expired", l: hubListen{addr: "0.0.0.0:7683", certFile: oldCert, keyFile: oldKey}, err: []string{"--tls-cert " + oldCert + " expired on"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			remote, cfg, err := c.l.check()
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

// A refused --listen binds nothing: neither the askbridges' socket nor the
// port.
func TestHubRefusesRemoteHTTPBeforeBinding(t *testing.T) {
	sock := filepath.Join(privateDir(t), "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	t.Setenv("ASKBRIDGE_HUB_TOKEN", "refuse-token-0123456789")
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := probe.Addr().(*net.TCPAddr).Port
	probe.Close()
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- runHub([]string{"--listen", "0.0.0.0:" + strconv.Itoa(port)}, nil, &stdout, &stderr) }()
	select {
	case code := <-done:
		assert.Equal(t, 2, code)
	case <-time.After(10 * time.Second):
		t.Fatal("the hub did not refuse")
	}
	assert.Contains(t, stderr.String(), "--tls-cert and --tls-key")
	assert.Contains(t, stderr.String(), "--allow-remote-http")
	_, err = os.Stat(sock)
	assert.True(t, os.IsNotExist(err), "no socket made: %v", err)
}

// --print-unit checks the certificate, so that no unit that cannot start is
// installed, and names its files by absolute path: the unit starts in
// another folder.
func TestHubPrintUnitTLS(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no unit on Windows")
	}
	cert, key, _ := testcert.Write(t)
	t.Chdir(filepath.Dir(cert))
	var stdout, stderr bytes.Buffer
	code := runHub([]string{"--print-unit", "--listen", "0.0.0.0:7683", "--tls-cert", "cert.pem", "--tls-key", "key.pem"}, nil, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "--tls-cert="+cert)
	assert.Contains(t, stdout.String(), "--tls-key="+key)

	stdout.Reset()
	code = runHub([]string{"--print-unit", "--listen", "0.0.0.0:7683"}, nil, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Empty(t, stdout.String())
	assert.Contains(t, stderr.String(), "--allow-remote-http")
}
