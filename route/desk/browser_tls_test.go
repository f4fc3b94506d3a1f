//go:build browser

package desk

import (
	"context"
	"crypto/tls"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testcert"
)

// A phone opens the hub's page over HTTPS by a name that is not loopback
// (--listen beyond loopback with --tls-cert): the page, its event stream
// and its answer, posted from the https origin, all pass the desk's Host
// and Origin checks.
func TestBrowserOverTLS(t *testing.T) {
	needBrowser(t)
	const host = "laptop.tailnet.test"
	certFile, keyFile, _ := testcert.Write(t)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	board := permission.NewBoard()
	s := New(ln, board, Options{AllowRemote: true, Addr: host + ":" + port,
		TLS: &tls.Config{Certificates: []tls.Certificate{cert}}})
	defer s.Close()
	tk := board.Open(permission.Request{SessionID: "s1", Round: 1, Questions: []permission.Question{{
		Header: "Colour", Question: "Which colour?", Options: []permission.Option{{Label: "Red"}, {Label: "Blue"}}}}})

	require.True(t, strings.HasPrefix(s.URL(), "https://"+host+":"), s.URL())
	code, _ := s.Devices().NewCode()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", "e2e/tls.mjs", s.URL(), code, host).CombinedOutput()
	require.NoError(t, err, string(out))
	got := string(out)
	assert.Contains(t, got, "ADDRESS https://"+host+":"+port+"/", "the page at the name, over https")
	assert.Contains(t, got, "STATUS Live")
	assert.Contains(t, got, "SENT")
	select {
	case <-tk.Done():
		assert.Equal(t, []string{"Blue"}, tk.Result().Answers[0].Answer.Labels)
	case <-time.After(10 * time.Second):
		t.Fatal("the answer did not reach the board")
	}
}
