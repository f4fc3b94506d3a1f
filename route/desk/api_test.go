package desk

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newDesk(t *testing.T, opts Options) (*Server, *permission.Board) {
	t.Helper()
	board := permission.NewBoard()
	s, err := Listen("127.0.0.1:0", board, opts)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s, board
}

func (s *Server) base() string { return "http://" + s.ln.Addr().String() }

func do(t *testing.T, s *Server, method, path, body string, hdr map[string]string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base()+path, rd)
	require.NoError(t, err)
	for k, v := range authHeaders(s, sessionOf(t, s)) {
		req.Header.Set(k, v)
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	prove(t, s, req)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

var (
	dbQ   = permission.Question{Question: "Which database?", Header: "Database", Options: []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite"}}}
	langQ = permission.Question{Question: "Which languages?", Header: "Langs", Kind: permission.Multi, Options: []permission.Option{{Label: "Go"}, {Label: "Rust"}, {Label: "C"}}}
)

func TestAPIListReplyRejectAndConflicts(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "s1", ToolCallID: "call_1", Questions: []permission.Question{dbQ, langQ}, Round: 1})

	code, body := do(t, s, "GET", "/question", "", nil)
	assert.Equal(t, 200, code)
	assert.JSONEq(t, `[{"id":"`+tk.ID+`","kind":"question","sessionID":"s1","round":1,"step":0,"tool":{"messageID":"","callID":"call_1"},"questions":[
		{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite"}],"multiple":false,"path":"questions[0]"},
		{"question":"Which languages?","header":"Langs","options":[{"label":"Go"},{"label":"Rust"},{"label":"C"}],"multiple":true,"path":"questions[1]"}]}]`, body)

	tests := []struct {
		name, path, body string
		code             int
		want             string
	}{
		{"not JSON", "/question/" + tk.ID + "/reply", `{`, 400, "invalid JSON"},
		{"wrong count", "/question/" + tk.ID + "/reply", `{"answers":[["Postgres"]]}`, 400, "want 2 (one per question), got 1"},
		{"two answers to a single-select", "/question/" + tk.ID + "/reply", `{"answers":[["Postgres","SQLite"],["Go"]]}`, 400, "takes one answer"},
		{"empty", "/question/" + tk.ID + "/reply", `{"answers":[[],["Go"]]}`, 400, "empty: pick an option or type an answer"},
		{"too long", "/question/" + tk.ID + "/reply", `{"answers":[["` + strings.Repeat("x", 1001) + `"],["Go"]]}`, 400, "answers[0]: a typed answer of 1001 characters; the limit is 1000"},
		{"too long multi", "/question/" + tk.ID + "/reply", `{"answers":[["Postgres"],["Go","` + strings.Repeat("y", 1001) + `"]]}`, 400, "answers[1]: a typed answer of 1001 characters"},
		{"unknown question", "/question/nope/reply", `{"answers":[]}`, 404, "no question"},
		{"reply", "/question/" + tk.ID + "/reply", `{"answers":[["MariaDB"],["C","Go"]]}`, 200, "true"},
		{"second reply", "/question/" + tk.ID + "/reply", `{"answers":[["Postgres"],["Go"]]}`, 409, "answered already"},
		{"reject after reply", "/question/" + tk.ID + "/reject", ``, 409, "is answered already"},
		{"unknown reject", "/question/nope/reject", ``, 404, `no question \"nope\"`},
	}
	for _, tt := range tests {
		code, body := do(t, s, "POST", tt.path, tt.body, nil)
		assert.Equal(t, tt.code, code, tt.name+": "+body)
		assert.Contains(t, body, tt.want, tt.name)
	}
	<-tk.Done()
	res := tk.Result()
	assert.Equal(t, permission.Answer{Other: true, Custom: "MariaDB"}, res.Answers[0].Answer)
	assert.Equal(t, []string{"Go", "C"}, res.Answers[1].Answer.Labels, "picks in option order")

	code, body = do(t, s, "GET", "/api/session/s1/history", "", nil)
	assert.Equal(t, 200, code)
	assert.Contains(t, body, `"round":1`)
	assert.Contains(t, body, `"state":"answered"`)
	assert.Contains(t, body, `"Which languages?":"Go, C"`)
	code, _ = do(t, s, "GET", "/api/session/nope/history", "", nil)
	assert.Equal(t, 404, code)
}

func TestAPITaskAnswer(t *testing.T) {
	s, board := newDesk(t, Options{NoCustom: true})
	one := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	multi := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{langQ}, Round: 2})
	for _, tt := range []struct {
		body string
		code int
		want string
	}{
		{`{"session_id":"zz","question_id":"` + one.ID + `","answer":"Postgres"}`, 404, `no session \"zz\"`},
		{`{"session_id":"s1","question_id":"nope","answer":"Postgres"}`, 404, "no question"},
		{`{"session_id":"s1","question_id":"` + one.ID + `","answer":"MariaDB"}`, 400, `\"MariaDB\" is not an option`},
		{`{"session_id":"s1","question_id":"` + one.ID + `","answer":42}`, 400, "want a label"},
		{`{"session_id":"s1","question_id":"` + one.ID + `","answer":"Postgres"}`, 200, `"success":true`},
		{`{"session_id":"s1","question_id":"` + multi.ID + `","answer":["Rust","Go"]}`, 200, `"success":true`},
		{`{"session_id":"s1","question_id":"` + multi.ID + `","answer":["Go"]}`, 409, "answered already"},
	} {
		code, body := do(t, s, "POST", "/api/task/answer", tt.body, nil)
		assert.Equal(t, tt.code, code, tt.body+" -> "+body)
		assert.Contains(t, body, tt.want)
	}
	assert.Equal(t, []string{"Go", "Rust"}, multi.Result().Answers[0].Answer.Labels)
}

func TestSecurity(t *testing.T) {
	s, board := newDesk(t, Options{})
	board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
	for _, tt := range []struct {
		name string
		path string
		hdr  map[string]string
		code int
	}{
		{"no session", "/question", map[string]string{"Cookie": "", KeyHeader: ""}, 401},
		{"the cookie alone", "/question", map[string]string{KeyHeader: ""}, 401},
		{"the key alone", "/question", map[string]string{"Cookie": ""}, 401},
		{"a wrong key", "/question", map[string]string{KeyHeader: "guess"}, 401},
		{"foreign origin", "/question", map[string]string{"Origin": "http://evil.example"}, 403},
		{"rebinding host", "/question", map[string]string{"Host": "evil.example"}, 403},
		{"the page holds no data and needs no session", "/", map[string]string{"Cookie": "", KeyHeader: ""}, 200},
		{"its script", "/app.js", map[string]string{"Cookie": "", KeyHeader: ""}, 200},
		{"its groups' script", "/groups.js", map[string]string{"Cookie": "", KeyHeader: ""}, 200},
		{"its pairing script", "/pair.js", map[string]string{"Cookie": "", KeyHeader: ""}, 200},
		{"no other file without a session", "/index.html", map[string]string{"Cookie": "", KeyHeader: ""}, 401},
		{"page on a rebinding host", "/", map[string]string{"Host": "evil.example", "Cookie": "", KeyHeader: ""}, 403},
	} {
		req, _ := http.NewRequest("GET", s.base()+tt.path, nil)
		sign(t, s, req)
		for k, v := range tt.hdr {
			if k == "Host" {
				req.Host = v
			} else if v == "" {
				req.Header.Del(k)
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, tt.code, resp.StatusCode, tt.name)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "no cross-origin access")
		assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "script-src 'self'")
	}
	_, err := Listen("0.0.0.0:0", permission.NewBoard(), Options{})
	assert.ErrorContains(t, err, "loopback only")
	remote, err := Listen("0.0.0.0:0", permission.NewBoard(), Options{AllowRemote: true})
	require.NoError(t, err)
	remote.Close()
	assert.Regexp(t, `^http://localhost:\d+/$`, s.URL(), "served as localhost, the name a passkey takes, with no secret")
}

func TestEventsStreamQuestionLifecycle(t *testing.T) {
	s, board := newDesk(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.base()+"/event", nil)
	sign(t, s, req)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Scan() // the comment line: the stream is subscribed
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
	board.Settle(tk.ID, permission.Result{}, permission.ByEditor())
	two := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
	board.Withdraw(two.ID, "user", permission.BySelf(permission.SourceClient))
	var types []string
	for sc.Scan() && len(types) < 4 {
		if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			types = append(types, ev)
		}
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			assert.True(t, json.Valid([]byte(data)))
		}
	}
	assert.Equal(t, []string{"question.asked", "question.replied", "question.asked", "question.rejected"}, types)
}

func TestTwoSessionsAtOnce(t *testing.T) {
	s, board := newDesk(t, Options{})
	a := board.Open(permission.Request{SessionID: "a", Questions: []permission.Question{dbQ}, Round: 1})
	b := board.Open(permission.Request{SessionID: "b", Questions: []permission.Question{dbQ}, Round: 1})
	code, _ := do(t, s, "POST", "/api/task/answer", `{"session_id":"a","question_id":"`+b.ID+`","answer":"Postgres"}`, nil)
	assert.Equal(t, 404, code, "a question of another session")
	do(t, s, "POST", "/question/"+b.ID+"/reply", `{"answers":[["SQLite"]]}`, nil)
	do(t, s, "POST", "/question/"+a.ID+"/reply", `{"answers":[["Postgres"]]}`, nil)
	assert.Equal(t, "Postgres", a.Result().Answers[0].Answer.Labels[0])
	assert.Equal(t, "SQLite", b.Result().Answers[0].Answer.Labels[0])
}
