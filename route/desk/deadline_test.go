package desk

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/permission"
)

type holdReply struct {
	ID          string    `json:"id"`
	Deadline    time.Time `json:"deadline"`
	RemainingMs int64     `json:"remainingMs"`
}

// GET /question shows a set's deadline; POST /question/{id}/hold moves it
// to a minute from now, on the board, and says so on the event stream.
func TestHoldMovesTheDeadline(t *testing.T) {
	s, board := newDesk(t, Options{})
	events := board.Subscribe(t.Context())
	deadline := time.Now().Add(5 * time.Second)
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Deadline: deadline})
	require.Equal(t, permission.EventAsked, (<-events).Type)

	var list []wirePending
	code, body := do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code)
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.Len(t, list, 1)
	require.NotNil(t, list[0].Deadline, body)
	assert.True(t, list[0].Deadline.Equal(deadline), "GET /question: %s", body)
	require.NotNil(t, list[0].RemainingMs)
	assert.True(t, *list[0].RemainingMs > 0 && *list[0].RemainingMs <= 5000, "remainingMs %d", *list[0].RemainingMs)

	before := time.Now()
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/hold", "", nil)
	require.Equal(t, 200, code, body)
	var held holdReply
	require.NoError(t, json.Unmarshal([]byte(body), &held))
	assert.Equal(t, tk.ID, held.ID)
	assert.False(t, held.Deadline.Before(before.Add(HoldFor)), "held until %v, asked at %v", held.Deadline, before)
	assert.True(t, held.RemainingMs > (HoldFor-holdSlack).Milliseconds() && held.RemainingMs <= HoldFor.Milliseconds(), "remainingMs %d", held.RemainingMs)
	assert.True(t, tk.Deadline().Equal(held.Deadline), "the board's deadline moved")
	ev := <-events
	assert.Equal(t, permission.EventHeld, ev.Type)
	assert.True(t, ev.Pending.Deadline.Equal(held.Deadline))
	ev = <-events // the hold is a claim too (claim.go)
	assert.Equal(t, permission.EventClaimed, ev.Type)

	// Holding again at once changes nothing and publishes nothing.
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/hold", "", nil)
	require.Equal(t, 200, code, body)
	var again holdReply
	require.NoError(t, json.Unmarshal([]byte(body), &again))
	assert.True(t, again.Deadline.Equal(held.Deadline))
	select {
	case ev := <-events:
		t.Fatalf("a hold that moves nothing published %s", ev.Type)
	case <-time.After(100 * time.Millisecond):
	}

	code, _ = do(t, s, "POST", "/question/"+tk.ID+"/hold", "", map[string]string{"Cookie": "", KeyHeader: ""})
	assert.Equal(t, 401, code, "the hold wants a session")
	code, body = do(t, s, "POST", "/question/nope/hold", "", nil)
	assert.Equal(t, 404, code, body)
	free := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
	// A set that cannot time out is claimed all the same, with no deadline.
	code, body = do(t, s, "POST", "/question/"+free.ID+"/hold", "", nil)
	assert.Equal(t, 200, code, body)
	assert.NotContains(t, body, "deadline")
	assert.Contains(t, body, `"claim"`)
	require.NoError(t, board.Settle(tk.ID, permission.Result{Answers: []permission.Answered{{Question: dbQ, Answer: permission.Answer{Labels: []string{"SQLite"}}}}}, permission.ByEditor()))
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/hold", "", nil)
	assert.Equal(t, 409, code, body)
	assert.Contains(t, body, "is answered already")
}

var authQ = permission.Question{Question: "Which auth?", Header: "Auth", Options: []permission.Option{{Label: "OAuth"}, {Label: "None"}},
	FollowUps: map[string][]permission.Question{"OAuth": {{Question: "Which provider?", Header: "Provider", Options: []permission.Option{{Label: "GitHub"}, {Label: "Google"}}}}}}

// An answer to a set that timed out is refused with 410 and says when,
// on every route (the follow-up step's included); a set resolved any
// other way keeps 409.
func TestALateAnswerIsGone(t *testing.T) {
	s, board := newDesk(t, Options{})
	deadline := time.Date(2026, 11, 22, 14, 5, 30, 0, time.Local)
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{authQ, dbQ}, Round: 1, Deadline: deadline})
	code, body := do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["OAuth"],["SQLite"]],"step":0}`, nil)
	require.Equal(t, 200, code, body)
	require.NoError(t, board.Withdraw(tk.ID, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout))) // as the bridge does at the deadline

	gone := "question " + tk.ID + " timed out at " + deadline.Format("15:04:05 MST") + "; the agent went on without an answer"
	for _, tt := range []struct{ name, path, body string }{
		{"the follow-up step", "/question/" + tk.ID + "/reply", `{"answers":[["Google"]],"step":1}`},
		{"a reply without a step", "/question/" + tk.ID + "/reply", `{"answers":[["Google"]]}`},
		{"the task route's follow-up step", "/api/task/answer", `{"session_id":"s1","question_id":"` + tk.ID + `","answer":"Google","step":1}`},
		{"a reject", "/question/" + tk.ID + "/reject", ``},
		{"a hold", "/question/" + tk.ID + "/hold", ``},
	} {
		code, body := do(t, s, "POST", tt.path, tt.body, nil)
		assert.Equal(t, http.StatusGone, code, tt.name+": "+body)
		var e struct {
			Error, State string
			Status       int
			Deadline     time.Time
		}
		require.NoError(t, json.Unmarshal([]byte(body), &e), tt.name)
		assert.Equal(t, gone, e.Error, tt.name)
		assert.Equal(t, "timeout", e.State, tt.name)
		assert.True(t, e.Deadline.Equal(deadline), tt.name)
	}
	code, body = do(t, s, "GET", "/api/session/s1/history", "", nil)
	require.Equal(t, 200, code)
	assert.Contains(t, body, `"state":"timeout","source":"timeout"`)

	// --on-timeout recommended answered it in the user's place: gone too.
	rec := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 2, Deadline: deadline})
	require.NoError(t, board.Settle(rec.ID, permission.Recommended([]permission.Question{dbQ}), permission.ByEditor()))
	code, body = do(t, s, "POST", "/question/"+rec.ID+"/reply", `{"answers":[["SQLite"]]}`, nil)
	assert.Equal(t, http.StatusGone, code, body)
	assert.Contains(t, body, "timed out at "+deadline.Format("15:04:05 MST")+"; the agent went on with the recommended answers")

	// Resolved any other way: 409, as before.
	answered := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 3, Deadline: deadline})
	require.NoError(t, board.Settle(answered.ID, permission.Result{Answers: []permission.Answered{{Question: dbQ, Answer: permission.Answer{Labels: []string{"SQLite"}}}}}, permission.ByEditor()))
	cancelled := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 4, Deadline: deadline})
	require.NoError(t, board.Withdraw(cancelled.ID, "user", permission.BySelf(permission.SourceClient)))
	for _, tt := range []struct{ path, body, want string }{
		{"/question/" + answered.ID + "/reply", `{"answers":[["SQLite"]]}`, "is answered already"},
		{"/api/task/answer", `{"session_id":"s1","question_id":"` + answered.ID + `","answer":"SQLite"}`, "is answered already"},
		{"/question/" + cancelled.ID + "/reply", `{"answers":[["SQLite"]]}`, "is cancelled already"},
		{"/question/" + cancelled.ID + "/reject", ``, "is cancelled already"},
	} {
		code, body := do(t, s, "POST", tt.path, tt.body, nil)
		assert.Equal(t, http.StatusConflict, code, tt.path+": "+body)
		assert.Contains(t, body, tt.want, tt.path)
	}
}

// A set that times out between the desk's look and its answer gets 410
// all the same: the board's ErrResolved is read again.
func TestATimeoutWhileAnsweringIsGone(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Deadline: time.Now()})
	require.NoError(t, board.Withdraw(tk.ID, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout)))
	rec := httptest.NewRecorder()
	s.boardError(rec, tk.ID, permission.ErrResolved)
	assert.Equal(t, http.StatusGone, rec.Code)
	assert.Contains(t, rec.Body.String(), "timed out at")
}

// The real bridge times a set out; the agent hears that nobody answered,
// and the desk refuses a late answer with 410 instead of dropping it.
func TestTheBridgesTimeoutRefusesALateDeskAnswer(t *testing.T) {
	b := newBridgedWith(t, adapter.Options{QuestionTimeout: 200 * time.Millisecond})
	b.send(b.fromAgent, compact(authAsk))
	b.expect(b.toClient, "session/request_permission")
	reply := b.expect(b.toAgent, `"ask-1"`)
	assert.Contains(t, reply, permission.NoAnswerInTime)

	sets, _ := b.board.History("s1")
	require.Len(t, sets, 1)
	id := sets[0].ID
	require.Equal(t, permission.StateTimeout, sets[0].State)
	code, body := do(t, b.desk, "POST", "/question/"+id+"/reply", `{"answers":[["None"],["SQLite"]]}`, nil)
	assert.Equal(t, http.StatusGone, code, body)
	assert.Contains(t, body, "question "+id+" timed out at "+sets[0].Deadline.Format("15:04:05 MST")+"; the agent went on without an answer")
	code, body = do(t, b.desk, "POST", "/api/task/answer", `{"session_id":"s1","question_id":"`+id+`","answer":"None"}`, nil)
	assert.Equal(t, http.StatusGone, code, body)
	code, body = do(t, b.desk, "GET", "/api/session/s1/history", "", nil)
	require.Equal(t, 200, code)
	assert.Contains(t, body, `"state":"timeout"`)
}

// The event stream carries a set's deadline, and the deadline events:
// question.held with the moved deadline, question.expiring.
func TestEventsCarryTheDeadline(t *testing.T) {
	s, board := newDesk(t, Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.base()+"/event", nil)
	sign(t, s, req)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Scan() // the comment line: the stream is subscribed
	deadline := time.Now().Add(5 * time.Second)
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Deadline: deadline})
	held, err := board.Hold(tk.ID, time.Minute)
	require.NoError(t, err)
	board.Expiring(tk.ID)
	require.NoError(t, board.Withdraw(tk.ID, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout)))

	type event struct {
		Type       string
		State      string
		Properties wirePending
	}
	var got []event
	for len(got) < 4 && sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			var ev event
			require.NoError(t, json.Unmarshal([]byte(data), &ev), data)
			got = append(got, ev)
		}
	}
	require.Len(t, got, 4)
	for i, want := range []struct {
		typ      permission.EventType // the wire's type, as a string below
		state    string
		deadline time.Time
	}{
		{permission.EventAsked, "pending", deadline},
		{permission.EventHeld, "pending", held},
		{permission.EventExpiring, "pending", held},
		{permission.EventRejected, "timeout", held},
	} {
		typ := string(want.typ)
		assert.Equal(t, typ, got[i].Type)
		assert.Equal(t, want.state, got[i].State, typ)
		require.NotNil(t, got[i].Properties.Deadline, typ)
		assert.True(t, got[i].Properties.Deadline.Equal(want.deadline), typ)
		assert.Equal(t, want.state == "pending", got[i].Properties.RemainingMs != nil, typ+": the time left while it can be answered")
	}
}
