package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ntfyPost is what the webhook got for one event.
type ntfyPost struct {
	header http.Header
	body   string
}

// freePort is a loopback port free a moment ago: --public-url must name
// the desk's port before askbridge starts.
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}

// A button of the ntfy notification answers the question with one tap:
// the agent gets the answer, the notification after says so, and the
// button answers nothing again.
func TestE2ENtfyButtonAnswersThroughTheBinary(t *testing.T) {
	t.Parallel()
	posts := make(chan ntfyPost, 10)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- ntfyPost{r.Header.Clone(), string(b)}
	}))
	defer hook.Close()
	public := "http://127.0.0.1:" + freePort(t)
	c := startClient(t, "--desk", strings.TrimPrefix(public, "http://"), "--public-url", public, "--notify-url", hook.URL+"/topic")
	s := c.setup()

	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which database?", "Database", false, "Postgres", "SQLite")}})
	c.permissionRequest() // the editor shows it too; nobody answers there
	asked := recvPost(t, posts)
	assert.Contains(t, asked.body, "Which database?\n  - Postgres: about Postgres\n  - SQLite: about SQLite")
	var acts []struct{ Action, Label, URL, Method string }
	require.NoError(t, json.Unmarshal([]byte(asked.header.Get("Actions")), &acts))
	require.Len(t, acts, 3)
	assert.Equal(t, "SQLite", acts[1].Label)
	require.True(t, strings.HasPrefix(acts[1].URL, public+"/tap/"), acts[1].URL)

	tap := func() int {
		resp, err := http.Post(acts[1].URL, "", nil)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Equal(t, http.StatusOK, tap())
	assert.Contains(t, c.agentSaw(), `"Which database?":"SQLite"`)
	assert.Equal(t, "answered", recvPost(t, posts).header.Get("X-Askbridge-Event"))
	assert.Equal(t, http.StatusGone, tap(), "a button answers once")
}

func recvPost(t *testing.T, posts <-chan ntfyPost) ntfyPost {
	t.Helper()
	select {
	case p := <-posts:
		return p
	case <-time.After(5 * time.Second):
		t.Fatal("the webhook got nothing within 5s")
		return ntfyPost{}
	}
}

// --public-url is checked at start: a URL, and a desk behind it.
func TestPublicURLIsCheckedAtStart(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]string{
		"--public-url https://x.example":                       "--public-url needs --desk",
		"--desk 127.0.0.1:0 --public-url x.example":            "want the desk's address",
		"--desk 127.0.0.1:0 --public-url https://x.example/?a": "want the desk's address",
	} {
		out, err := exec.Command(askbridgeBin, append(strings.Fields(args), "--", "true")...).CombinedOutput()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, args)
		assert.Equal(t, 2, ee.ExitCode(), args)
		assert.Contains(t, string(out), want, args)
	}
}
