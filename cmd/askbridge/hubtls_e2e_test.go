//go:build unix

package main

import (
	"bufio"
	"crypto/tls"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/qr/qrtest"
	"github.com/askbridge/askbridge/internal/testcert"
)

// startHubStderr runs `askbridge hub` with args and returns the page's
// printed address and the QR code printed after it ("" without one).
func startHubStderr(t *testing.T, args ...string) (page, code string) {
	sock := filepath.Join(privateDir(t), "hub.sock")
	cmd := exec.Command(askbridgeBin, append([]string{"hub"}, args...)...)
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB="+sock, "ASKBRIDGE_HUB_TOKEN="+hubTestToken, "GORACE=atexit_sleep_ms=0",
		"XDG_STATE_HOME="+filepath.Join(filepath.Dir(sock), "state")) // the history beside the socket
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	type result struct{ page, code string }
	found := make(chan result, 1)
	go func() {
		var r result
		sc := bufio.NewScanner(stderr)
		inCode := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "askbridge: hub at "):
				r.page = strings.TrimPrefix(line, "askbridge: hub at ")
			case strings.HasPrefix(line, "askbridge: scan to open the hub"):
				inCode = true
			case inCode && strings.Trim(line, "█▀▄ ") == "":
				r.code += line + "\n"
			case strings.Contains(line, "askbridges report on"):
				found <- r
				for sc.Scan() {
				}
				return
			}
		}
		found <- r
	}()
	select {
	case r := <-found:
		require.NotEmpty(t, r.page, "the hub did not say where it is")
		return r.page, r.code
	case <-time.After(15 * time.Second):
		t.Fatal("the hub did not start")
	}
	return "", ""
}

// The hub with --tls-cert/--tls-key serves its page and API over HTTPS
// only, and its QR code, read by a real decoder, is the printed address.
func TestE2EHubTLSAndQR(t *testing.T) {
	cert, key, pool := testcert.Write(t)
	page, code := startHubStderr(t, "--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key, "--qr")
	require.True(t, strings.HasPrefix(page, "https://127.0.0.1:"), page)
	require.True(t, strings.HasSuffix(page, "/?token="+hubTestToken), page)
	base := strings.TrimSuffix(page, "/?token="+hubTestToken)

	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	req, _ := http.NewRequest("GET", base+"/question", nil)
	req.Header.Set("Authorization", "Bearer "+hubTestToken)
	resp, err := c.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "GET /question with the token over TLS")

	plain := strings.Replace(base, "https://", "http://", 1) + "/question?token=" + hubTestToken
	resp, err = (&http.Client{Timeout: 5 * time.Second}).Get(plain)
	if err == nil {
		resp.Body.Close()
		assert.NotEqual(t, http.StatusOK, resp.StatusCode, "plain HTTP to the HTTPS page must fail")
	}

	// askbridge inbox speaks to the hub on its Unix socket only, never over
	// TCP (inbox_e2e_test.go).

	require.NotEmpty(t, code, "--qr prints a code")
	assert.Equal(t, page, qrtest.Decode(t, qrtest.Parse(t, code)), "the code opens the printed address with its token")
}

// With --public-url, the code is the address a phone reaches the page at.
func TestE2EHubQRPublicURL(t *testing.T) {
	page, code := startHubStderr(t, "--listen", "127.0.0.1:0", "--public-url", "https://desk.example.net/", "--qr")
	require.True(t, strings.HasPrefix(page, "http://127.0.0.1:"), page)
	require.NotEmpty(t, code)
	assert.Equal(t, "https://desk.example.net/?token="+hubTestToken, qrtest.Decode(t, qrtest.Parse(t, code)))

	_, code = startHubStderr(t, "--listen", "127.0.0.1:0")
	assert.Empty(t, code, "no code on loopback unless asked")
}
