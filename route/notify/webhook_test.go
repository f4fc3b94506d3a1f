package notify

import (
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// received is one request a test webhook got.
type received struct {
	path   string
	header http.Header
	body   string
	user   string
	pass   string
}

// webhookServer is a webhook on loopback that hands each request to got.
func webhookServer(t *testing.T, got func(received)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "want POST", http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		user, pass, _ := r.BasicAuth()
		got(received{path: r.URL.Path, header: r.Header.Clone(), body: string(body), user: user, pass: pass})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func recv[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(2 * time.Second):
		t.Fatal("nothing arrived within 2s")
		panic("unreachable")
	}
}

// By default the webhook publishes the way ntfy reads a topic URL: the text
// in the body, the title (RFC 2047 when not ASCII), tags, priority and the
// desk link in headers.
func TestWebhookPublishesNtfyStyle(t *testing.T) {
	got := make(chan received, 10)
	srv := webhookServer(t, func(r received) { got <- r })
	b := permission.NewBoard()
	start(t, b, Options{URL: srv.URL + "/askbridge-topic", DeskURL: deskURL})
	q := question("Welche Datenbank für später?", "Datenbank", "Postgres", "SQLite")
	tk := ask(b, "s", q)

	r := recv(t, got)
	assert.Equal(t, "/askbridge-topic", r.path)
	assert.Equal(t, "text/plain; charset=utf-8", r.header.Get("Content-Type"))
	raw := r.header.Get("Title")
	assert.Regexp(t, `^[\x20-\x7e]+$`, raw, "the title header is ASCII")
	title, err := new(mime.WordDecoder).DecodeHeader(raw)
	require.NoError(t, err)
	assert.Equal(t, "askbridge: Datenbank: Welche Datenbank für später?", title)
	assert.Equal(t, "question", r.header.Get("Tags"))
	assert.Equal(t, "high", r.header.Get("Priority"))
	assert.Equal(t, deskPage, r.header.Get("Click"), "the page, never its credential")
	assert.Equal(t, Asked, r.header.Get("X-Askbridge-Event"))
	assert.Equal(t, "Welche Datenbank für später?\n  - Postgres: about Postgres\n  - SQLite: about SQLite\n\nAnswer at the desk: "+deskPage, r.body)
	assert.Empty(t, r.header.Get("Actions"), "no answer buttons without --public-url")

	require.NoError(t, b.Settle(tk.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{
		{Question: q, Answer: permission.Answer{Other: true, Custom: "MariaDB"}, Path: "questions[0]"}}}, permission.ByEditor()))
	r = recv(t, got)
	title, _ = new(mime.WordDecoder).DecodeHeader(r.header.Get("Title"))
	assert.Equal(t, "askbridge: Answered at the desk: Datenbank: Welche Datenbank für später?", title)
	assert.Equal(t, "white_check_mark", r.header.Get("Tags"))
	assert.Equal(t, "low", r.header.Get("Priority"), "an answer needs no alarm")
	assert.Equal(t, "Datenbank: MariaDB", r.body)
}

// "#json" asks for the event itself; the fragment never leaves askbridge.
func TestWebhookJSON(t *testing.T) {
	got := make(chan received, 10)
	srv := webhookServer(t, func(r received) { got <- r })
	b := permission.NewBoard()
	start(t, b, Options{URL: srv.URL + "/hook#json"})
	tk := ask(b, "s", question("Q?", "H", "a", "b"))
	require.NoError(t, b.Withdraw(tk.ID, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout)))
	for _, want := range []string{Asked, Timeout} {
		r := recv(t, got)
		assert.Equal(t, "/hook", r.path)
		assert.Equal(t, "application/json", r.header.Get("Content-Type"))
		assert.Empty(t, r.header.Get("Title"))
		var ev Event
		require.NoError(t, json.Unmarshal([]byte(r.body), &ev))
		assert.Equal(t, want, ev.Event)
		assert.Equal(t, "Q?", ev.Questions[0].Question)
	}
}

// Credentials: basic auth from the URL, a bearer token from the
// environment, neither in the logs.
func TestWebhookCredentials(t *testing.T) {
	got := make(chan received, 10)
	srv := webhookServer(t, func(r received) { got <- r })
	w, err := NewWebhook("http://phil:s3cret@" + srv.Listener.Addr().String() + "/t")
	require.NoError(t, err)
	assert.NotContains(t, w.name(), "s3cret")
	assert.NotContains(t, w.name(), "/t", "nor the topic, a public topic's secret")
	require.NoError(t, w.deliver(t.Context(), Event{Event: Asked, ID: "q1"}))
	r := recv(t, got)
	assert.Equal(t, "phil", r.user)
	assert.Equal(t, "s3cret", r.pass)

	t.Setenv(TokenEnv, "tk_abc")
	w, err = NewWebhook(srv.URL + "/t")
	require.NoError(t, err)
	require.NoError(t, w.deliver(t.Context(), Event{Event: Asked, ID: "q1"}))
	assert.Equal(t, "Bearer tk_abc", recv(t, got).header.Get("Authorization"))
}

// A webhook that refuses or hangs is logged, bounded, and changes nothing.
func TestWebhookFailuresAreLogged(t *testing.T) {
	refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "topic is read-only", http.StatusForbidden)
	}))
	defer refuse.Close()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer hang.Close()
	defer close(release)

	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{URL: refuse.URL + "/t", Logger: log})
	start(t, b, Options{URL: hang.URL + "/t", Timeout: 200 * time.Millisecond, Logger: log})
	tk := ask(b, "s", question("Q?", "H", "a", "b"))
	require.NoError(t, b.Settle(tk.ID, permission.Result{}, permission.ByEditor()))
	eventually(t, 2*time.Second, "the refusal is logged", func() bool { return out.count("403 Forbidden: topic is read-only") == 2 })
	eventually(t, 2*time.Second, "the hang is logged", func() bool { return out.count("timed out and was stopped") == 2 })
	p, _ := b.Get(tk.ID)
	assert.Equal(t, permission.StateAnswered, p.State)
	assert.Equal(t, permission.SourceClient, tk.Result().Source)
}

func TestWebhookURLIsChecked(t *testing.T) {
	for raw, want := range map[string]string{
		"ntfy.sh/topic":              "want an http:// or https:// URL",
		"ftp://example.com/x":        "want an http:// or https:// URL",
		"https://":                   "want an http:// or https:// URL",
		"https://ntfy.sh/topic#yaml": "unknown #yaml",
		"https://a b/":               "invalid character",
	} {
		_, err := NewWebhook(raw)
		if assert.Error(t, err, raw) {
			assert.Contains(t, err.Error(), want, raw)
			assert.Contains(t, err.Error(), "--notify-url", raw)
		}
	}
	_, err := Start(permission.NewBoard(), Options{URL: "nope"})
	assert.Error(t, err)
}
