package desk

import (
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tapReq posts to the tap route with no desk token.
func tapReq(t *testing.T, s *Server, token string, hdr map[string]string) (int, string) {
	t.Helper()
	return doHost(t, s, "POST", TapPath+token, hdr)
}

// doHost is a request with the headers hdr, "Host" included, and the desk
// token only when hdr has it.
func doHost(t *testing.T, s *Server, method, path string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.base()+path, nil)
	require.NoError(t, err)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A button's token answers its set with its option, once, and only while
// the set waits; a token for another set, another option or from another
// askbridge answers nothing.
func TestTapAnswersOnceAndOnlyItsSetAndOption(t *testing.T) {
	key := answertoken.New()
	s, board := newDesk(t, Options{Taps: key})
	open := func(qs ...permission.Question) *permission.Ticket {
		return board.Open(permission.Request{SessionID: "s1", Questions: qs, Round: 1})
	}
	q1, q2 := open(dbQ), open(dbQ)
	sqlite1, pg1, pg2 := key.Mint(q1.ID, 1), key.Mint(q1.ID, 0), key.Mint(q2.ID, 0)

	code, body := tapReq(t, s, answertoken.New().Mint(q1.ID, 1), nil)
	assert.Equal(t, http.StatusForbidden, code, "another askbridge's token: "+body)
	code, _ = tapReq(t, s, sqlite1[:len(sqlite1)-2]+"AA", nil)
	assert.Equal(t, http.StatusForbidden, code, "an altered token")
	code, _ = tapReq(t, s, "nothing", nil)
	assert.Equal(t, http.StatusForbidden, code, "no token at all")
	code, _ = do(t, s, "POST", TapPath+sqlite1, "", nil)
	require.Equal(t, http.StatusOK, code, "a session neither helps nor hinders")
	<-q1.Done()
	res := q1.Result()
	assert.Equal(t, permission.SourceNotification, res.Source, "recorded as a notification's tap, not the desk's")
	require.Len(t, res.Answers, 1)
	assert.Equal(t, []string{"SQLite"}, res.Answers[0].Answer.Labels, "the option the token names, not another")

	code, body = tapReq(t, s, sqlite1, nil)
	assert.Equal(t, http.StatusGone, code, "replayed")
	assert.Contains(t, body, "used already")
	code, body = tapReq(t, s, pg1, nil)
	assert.Equal(t, http.StatusConflict, code, "the set's other option, once it is answered")
	assert.Contains(t, body, "answered already")
	p2, _ := board.Get(q2.ID)
	assert.Equal(t, permission.StatePending, p2.State, "q1's buttons left q2 alone")

	// Answered elsewhere first: the button comes too late.
	require.NoError(t, board.Settle(q2.ID, permission.Result{Answers: []permission.Answered{{Question: dbQ, Answer: permission.Answer{Labels: []string{"SQLite"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	code, body = tapReq(t, s, pg2, nil)
	assert.Equal(t, http.StatusConflict, code, body)
	assert.Equal(t, permission.SourceClient, q2.Result().Source)
	code, _ = tapReq(t, s, pg2, nil)
	assert.Equal(t, http.StatusConflict, code, "a refused token stays unspent, and refused")

	// Timed out: 410, as a late answer at the desk.
	q3 := open(dbQ)
	require.NoError(t, board.Withdraw(q3.ID, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout)))
	code, body = tapReq(t, s, key.Mint(q3.ID, 0), nil)
	assert.Equal(t, http.StatusGone, code)
	assert.Contains(t, body, "timed out")

	// A set that asks more than one question, or an option it lacks.
	q4 := open(dbQ, langQ)
	code, _ = tapReq(t, s, key.Mint(q4.ID, 0), nil)
	assert.Equal(t, http.StatusConflict, code)
	q5 := open(dbQ)
	code, _ = tapReq(t, s, key.Mint(q5.ID, 7), nil)
	assert.Equal(t, http.StatusConflict, code)
	code, _ = tapReq(t, s, key.Mint("q99", 0), nil)
	assert.Equal(t, http.StatusNotFound, code)
	p5, _ := board.Get(q5.ID)
	assert.Equal(t, permission.StatePending, p5.State)
}

// The tap route exists only with a key; it keeps the host rule, not the
// origin rule (ntfy's web app posts from its own origin); the public URL's
// host and origin are the desk's own.
func TestTapHostsAndOrigins(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	code, _ := tapReq(t, s, answertoken.New().Mint(tk.ID, 0), nil)
	assert.Equal(t, http.StatusUnauthorized, code, "no key, no route: it is the API's, behind the desk token")

	key := answertoken.New()
	s, board = newDesk(t, Options{Taps: key, PublicURL: "https://desk.example.net/"})
	open := func() string {
		tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
		return key.Mint(tk.ID, 0)
	}
	code, _ = tapReq(t, s, open(), map[string]string{"Host": "evil.example"})
	assert.Equal(t, http.StatusForbidden, code, "a rebinding host")
	code, body := tapReq(t, s, open(), map[string]string{"Host": "desk.example.net", "Origin": "https://ntfy.sh"})
	assert.Equal(t, http.StatusOK, code, body)
	code, _ = doHost(t, s, "GET", "/question", withSession(t, s, map[string]string{"Host": "desk.example.net", "Origin": "https://desk.example.net"}))
	assert.Equal(t, http.StatusOK, code, "the page opened at the public URL uses the API")
	code, _ = do(t, s, "GET", "/question", "", map[string]string{"Origin": "https://ntfy.sh"})
	assert.Equal(t, http.StatusForbidden, code, "other origins stay out of the API")
}

// Two buttons of one set tapped at once: one answer, one 409.
func TestTwoTapsAtOnce(t *testing.T) {
	key := answertoken.New()
	s, board := newDesk(t, Options{Taps: key})
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	codes := make(chan int, 2)
	for i := range 2 {
		go func() {
			c, _ := tapReq(t, s, key.Mint(tk.ID, i), nil)
			codes <- c
		}()
	}
	got := map[int]int{}
	for range 2 {
		select {
		case c := <-codes:
			got[c]++
		case <-time.After(5 * time.Second):
			t.Fatal("a tap did not return")
		}
	}
	assert.Equal(t, map[int]int{200: 1, 409: 1}, got)
}

// A notification never approves: a button token minted for an approval
// (as c4ea460's notifier did, whose links the agent could read) answers
// nothing, and the approval still waits for the user.
func TestTapNeverApproves(t *testing.T) {
	key := answertoken.New()
	s, board := newDesk(t, Options{Taps: key})
	tk := openApproval(board)
	code, body := tapReq(t, s, key.Mint(tk.ID, 0), nil)
	assert.Equal(t, http.StatusConflict, code, body)
	assert.Contains(t, body, "approve it at the page")
	select {
	case <-tk.Done():
		t.Fatal("a notification's button approved")
	case <-time.After(50 * time.Millisecond):
	}
}
