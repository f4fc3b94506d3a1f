package notify

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tapped posts to a button's URL as ntfy's app does: no desk token.
func tapped(t *testing.T, a ntfyAction) (int, string) {
	t.Helper()
	req, err := http.NewRequest(a.Method, a.URL, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func actionsOf(t *testing.T, r received) []ntfyAction {
	t.Helper()
	raw := r.header.Get("Actions")
	assert.Regexp(t, `^[\x20-\x7e]*$`, raw, "the Actions header is ASCII")
	if raw == "" {
		return nil
	}
	var acts []ntfyAction
	require.NoError(t, json.Unmarshal([]byte(raw), &acts))
	return acts
}

// With --public-url, a single-choice question gets a button per option
// that answers it through the desk with one tap, once, and only its own
// set with its own option; and one that opens the desk there.
func TestWebhookButtonsAnswerOnceAndOnlyTheirSetAndOption(t *testing.T) {
	got := make(chan received, 10)
	srv := webhookServer(t, func(r received) { got <- r })
	b := permission.NewBoard()
	key := answertoken.New()
	d, err := desk.Listen("127.0.0.1:0", b, desk.Options{Taps: key})
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	public := strings.TrimSuffix(strings.Split(d.URL(), "?")[0], "/") // a tunnel's address, in real life
	start(t, b, Options{URL: srv.URL + "/topic", DeskURL: d.URL(), PublicURL: public + "/", Taps: key})

	q := question("Which database?", "Database", "Postgres", "SQLité")
	q1 := ask(b, "s", q)
	r := recv(t, got)
	page := public + "/"
	assert.Equal(t, "Which database?\n  - Postgres: about Postgres\n  - SQLité: about SQLité\n\nAnswer at the desk: "+page, r.body)
	assert.Equal(t, page, r.header.Get("Click"), "the notification opens the desk where the phone reaches it")
	acts := actionsOf(t, r)
	require.Len(t, acts, 3)
	for i, label := range []string{"Postgres", "SQLité"} {
		assert.Equal(t, "http", acts[i].Action)
		assert.Equal(t, label, acts[i].Label)
		assert.Equal(t, "POST", acts[i].Method)
		assert.True(t, acts[i].Clear)
		assert.True(t, strings.HasPrefix(acts[i].URL, public+desk.TapPath), acts[i].URL)
		assert.NotContains(t, acts[i].URL, "token=", "never a session")
	}
	assert.Equal(t, ntfyAction{Action: "view", Label: "Open desk", URL: page}, acts[2])
	pg1, sqlite1 := acts[0], acts[1]

	q2 := ask(b, "s", q)
	acts2 := actionsOf(t, recv(t, got))
	require.Len(t, acts2, 3)
	pg2 := acts2[0]

	forged := sqlite1
	base, tok, _ := strings.Cut(sqlite1.URL, desk.TapPath)
	forged.URL = base + desk.TapPath + strings.Replace(tok, ".1.", ".0.", 1) // the other option, same signature
	require.NotEqual(t, sqlite1.URL, forged.URL)
	code, _ := tapped(t, forged)
	assert.Equal(t, http.StatusForbidden, code, "another option under this button's signature")
	code, _ = tapped(t, ntfyAction{Method: "POST", URL: public + desk.TapPath + answertoken.New().Mint(q1.ID, 1)})
	assert.Equal(t, http.StatusForbidden, code, "another askbridge's button")

	code, body := tapped(t, sqlite1)
	require.Equal(t, http.StatusOK, code, body)
	<-q1.Done()
	require.Len(t, q1.Result().Answers, 1)
	assert.Equal(t, []string{"SQLité"}, q1.Result().Answers[0].Answer.Labels)
	answered := recv(t, got)
	assert.Equal(t, Answered, answered.header.Get("X-Askbridge-Event"))
	assert.Empty(t, answered.header.Get("Actions"), "an answered set has no buttons")
	p2, _ := b.Get(q2.ID)
	assert.Equal(t, permission.StatePending, p2.State, "q1's button answered q1 only")

	code, _ = tapped(t, sqlite1)
	assert.Equal(t, http.StatusGone, code, "replayed")
	code, _ = tapped(t, pg1)
	assert.Equal(t, http.StatusConflict, code, "q1's other button, once q1 is answered")

	require.NoError(t, b.Settle(q2.ID, permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{"SQLité"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	code, _ = tapped(t, pg2)
	assert.Equal(t, http.StatusConflict, code, "q2 answered in the editor first")
	assert.Equal(t, permission.SourceClient, q2.Result().Source)
}

// Which sets get which buttons: ntfy takes three actions at most.
func TestWebhookButtonsFitNtfy(t *testing.T) {
	key := answertoken.New()
	w, err := NewWebhook("http://127.0.0.1:1/topic")
	require.NoError(t, err)
	w.Buttons("https://desk.example.net", key)
	ev := func(kind string, qs ...permission.Question) Event {
		return Event{Event: kind, ID: "q1", Questions: qs, DeskURL: "http://127.0.0.1:9/?token=t0k"}
	}
	kinds := func(acts []ntfyAction) string {
		var s []string
		for _, a := range acts {
			s = append(s, a.Action)
		}
		return strings.Join(s, ",")
	}
	multi := question("Which?", "W", "a", "b")
	multi.Kind.Many = true
	follow := question("Auth?", "A", "OAuth", "None")
	follow.FollowUps = map[string][]permission.Question{"OAuth": {question("Which provider?", "P", "GitHub", "Google")}}
	for name, tt := range map[string]struct {
		e    Event
		want string
	}{
		"two options":     {ev(Asked, question("Q?", "H", "a", "b")), "http,http,view"},
		"three options":   {ev(Asked, question("Q?", "H", "a", "b", "c")), "http,http,http"},
		"four options":    {ev(Asked, question("Q?", "H", "a", "b", "c", "d")), "view"},
		"expiring":        {ev(Expiring, question("Q?", "H", "a", "b")), "http,http,view"},
		"multi-select":    {ev(Asked, multi), "view"},
		"follow-ups":      {ev(Asked, follow), "view"},
		"two questions":   {ev(Asked, question("Q?", "H", "a", "b"), question("R?", "I", "c", "d")), "view"},
		"answered":        {ev(Answered, question("Q?", "H", "a", "b")), ""},
		"no desk to open": {Event{Event: Asked, ID: "q1", Questions: []permission.Question{question("Q?", "H", "a", "b")}}, "http,http"},
	} {
		req, err := w.request(t.Context(), tt.e)
		require.NoError(t, err)
		assert.Equal(t, tt.want, kinds(actionsOf(t, received{header: req.Header})), name)
	}
	acts := w.actions(ev(Asked, question("Q?", "H", "a", "b")))
	c, err := key.Check(strings.TrimPrefix(acts[1].URL, "https://desk.example.net/tap/"))
	require.NoError(t, err)
	assert.Equal(t, answertoken.Claim{Set: "q1", Option: 1}, c)

	w.Buttons("", key)
	req, err := w.request(t.Context(), ev(Asked, question("Q?", "H", "a", "b")))
	require.NoError(t, err)
	assert.Empty(t, req.Header.Get("Actions"), "no public URL, no buttons")
	assert.Equal(t, "http://127.0.0.1:9/?token=t0k", req.Header.Get("Click"), "request sends the DeskURL Start gave it")
}

// Without --public-url the log says, once, why there are no buttons.
func TestWebhookSaysWhyNoButtons(t *testing.T) {
	log, out := newLogger()
	start(t, permission.NewBoard(), Options{URL: "http://127.0.0.1:1/t", Logger: log})
	start(t, permission.NewBoard(), Options{URL: "http://127.0.0.1:1/t#json", Logger: log})
	start(t, permission.NewBoard(), Options{URL: "http://127.0.0.1:1/t", PublicURL: "https://x.example", Taps: answertoken.New(), Logger: log})
	assert.Equal(t, 1, out.count("--public-url"))
}
