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

	"github.com/askbridge/askbridge/testkit/testcert"
)

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
