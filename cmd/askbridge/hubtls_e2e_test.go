//go:build unix

package main

import (
	"bufio"
	"crypto/tls"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/pty"
	"github.com/askbridge/askbridge/internal/qr/qrtest"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/testkit/testcert"
)

// startHubStderr runs `askbridge hub` with args on a terminal of its own,
// as a user does, and returns the page's printed address, the pairing
// link and the QR code printed after it ("" without one).
func startHubStderr(t *testing.T, args ...string) (page, link, code string) {
	sock := filepath.Join(privateDir(t), "hub.sock")
	cmd := exec.Command(askbridgeBin, append([]string{"hub"}, args...)...)
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB="+sock, "GORACE=atexit_sleep_ms=0", "NO_COLOR=1",
		"XDG_STATE_HOME="+filepath.Join(filepath.Dir(sock), "state")) // the history beside the socket
	// Only stderr on the terminal: with stdout there too, a library asks
	// the terminal for its colors and waits for an answer no test gives.
	cmd.Stdin, cmd.Stdout = strings.NewReader(""), io.Discard
	stderr, err := pty.Start(cmd)
	if err != nil {
		t.Skip("no pseudo-terminal here:", err)
	}
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
	t.Cleanup(func() { stderr.Close() })
	type result struct{ page, link, code string }
	found := make(chan result, 1)
	pairing := regexp.MustCompile(`^askbridge: pairing code [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4} \(once, until [0-9:]+\): (\S+)$`)
	go func() {
		var r result
		sc := bufio.NewScanner(stderr)
		inCode := false
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			switch {
			case strings.HasPrefix(line, "askbridge: hub at "):
				r.page = strings.TrimPrefix(line, "askbridge: hub at ")
			case pairing.MatchString(line):
				r.link = pairing.FindStringSubmatch(line)[1]
			case strings.HasPrefix(line, "askbridge: scan to pair a phone"):
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
		return r.page, r.link, r.code
	case <-time.After(15 * time.Second):
		t.Fatal("the hub did not start")
	}
	return "", "", ""
}

// The hub with --tls-cert/--tls-key serves its page and API over HTTPS
// only; its pairing link, on its terminal, pairs a device over TLS, once.
// The page is on loopback, which no phone reaches: no QR code of it, even
// with --qr (TestE2EHubQRPublicURL reads one with a real decoder).
func TestE2EHubTLSAndQR(t *testing.T) {
	t.Parallel()
	cert, key, pool := testcert.Write(t)
	page, link, code := startHubStderr(t, "--listen", "127.0.0.1:0", "--tls-cert", cert, "--tls-key", key, "--qr")
	require.True(t, strings.HasPrefix(page, "https://localhost:"), page)
	base := strings.TrimSuffix(page, "/")
	require.True(t, strings.HasPrefix(link, page+"#pair="), link)
	assert.Empty(t, code, "no QR code of an address only this machine opens")

	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	http.DefaultTransport.(*http.Transport).TLSClientConfig = tr.TLSClientConfig // desk.Pair's client
	t.Cleanup(func() { http.DefaultTransport.(*http.Transport).TLSClientConfig = nil })
	pairCode := strings.TrimPrefix(link, page+"#pair=")
	c, err := desk.Pair(t.Context(), strings.Replace(base, "localhost", "127.0.0.1", 1), pairCode, false)
	require.NoError(t, err, "pairing over TLS")
	_, err = desk.Pair(t.Context(), strings.Replace(base, "localhost", "127.0.0.1", 1), pairCode, false)
	assert.Error(t, err, "the code works once")
	resp, err := c.Get(strings.Replace(base, "localhost", "127.0.0.1", 1) + "/question")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "GET /question with the session over TLS")

	plain := strings.Replace(base, "https://localhost", "http://127.0.0.1", 1) + "/question"
	resp, err = (&http.Client{Timeout: 5 * time.Second}).Get(plain)
	if err == nil {
		resp.Body.Close()
		assert.NotEqual(t, http.StatusOK, resp.StatusCode, "plain HTTP to the HTTPS page must fail")
	}
}

// With --public-url, the code is the pairing link at the address a phone
// reaches the page at.
func TestE2EHubQRPublicURL(t *testing.T) {
	t.Parallel()
	page, link, code := startHubStderr(t, "--listen", "127.0.0.1:0", "--public-url", "https://desk.example.net/", "--qr")
	require.Regexp(t, `^https://desk\.example\.net/ \(on this machine at http://localhost:\d+/\)$`, page, "the public URL first")
	require.NotEmpty(t, code)
	assert.Regexp(t, `^https://desk\.example\.net/#pair=[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{14}$`, link)
	assert.Equal(t, link, qrtest.Decode(t, qrtest.Parse(t, code)))

	_, _, code = startHubStderr(t, "--listen", "127.0.0.1:0")
	assert.Empty(t, code, "no code on loopback unless asked")
}
