package desk

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// Two devices open the same card. The first claims it; the second is told
// who has it (in its claim's refusal, in GET /question and on the event
// stream), its reply is refused rather than silently lost, and its
// explicit takeover works: then it is the first's reply that is refused.
// Before claims, the second's reply simply won.
func TestTwoDevicesClaimTheSameCard(t *testing.T) {
	s, board := newDesk(t, Options{})
	_, phone, err := s.Devices().Add("Pixel 8", "", nil, nil, false)
	require.NoError(t, err)
	_, laptop, err := s.Devices().Add("Laptop", "", nil, nil, false)
	require.NoError(t, err)
	asPhone, asLaptop := authHeaders(s, phone), authHeaders(s, laptop)
	events := board.Subscribe(t.Context())
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	require.Equal(t, permission.EventAsked, (<-events).Type)

	code, body := do(t, s, "POST", "/question/"+tk.ID+"/hold", "", asPhone)
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `"name":"Pixel 8"`)
	assert.Contains(t, body, `"mine":true`)
	ev := <-events
	require.Equal(t, permission.EventClaimed, ev.Type)
	require.NotNil(t, ev.Pending.Claim)
	assert.Equal(t, "Pixel 8", ev.Pending.Claim.Name)

	// The laptop sees who has it.
	code, body = do(t, s, "GET", "/question", "", asLaptop)
	require.Equal(t, http.StatusOK, code)
	var list []wirePending
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.Len(t, list, 1)
	require.NotNil(t, list[0].Claim, body)
	assert.Equal(t, "Pixel 8", list[0].Claim.Name)
	assert.Positive(t, list[0].Claim.RemainingMs)

	code, body = do(t, s, "POST", "/question/"+tk.ID+"/hold", "", asLaptop)
	assert.Equal(t, http.StatusConflict, code, body)
	assert.Contains(t, body, "being answered on Pixel 8")
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["SQLite"]]}`, asLaptop)
	assert.Equal(t, http.StatusConflict, code, body)
	assert.Contains(t, body, "being answered on Pixel 8")
	code, _ = do(t, s, "POST", "/question/"+tk.ID+"/reject", "", asLaptop)
	assert.Equal(t, http.StatusConflict, code, "a reject is refused too")
	p, _ := board.Get(tk.ID)
	assert.Equal(t, permission.StatePending, p.State, "nothing was answered")

	// Taking it over, explicitly.
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/hold", `{"takeover":true}`, asLaptop)
	require.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, `"name":"Laptop"`)
	ev = <-events
	require.Equal(t, permission.EventClaimed, ev.Type)
	assert.Equal(t, "Laptop", ev.Pending.Claim.Name)
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["Postgres"]]}`, asPhone)
	assert.Equal(t, http.StatusConflict, code, body)
	assert.Contains(t, body, "being answered on Laptop")
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["SQLite"]]}`, asLaptop)
	require.Equal(t, http.StatusOK, code, body)
	r := tk.Result()
	assert.Equal(t, []string{"SQLite"}, r.Answers[0].Answer.Labels)
	assert.Equal(t, "Laptop", r.Device, "the result names the device that decided")
}

// The editor's own answer wins at any time, whoever claims the set.
func TestTheEditorWinsOverAClaim(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	code, body := do(t, s, "POST", "/question/"+tk.ID+"/hold", "", nil)
	require.Equal(t, http.StatusOK, code, body)
	require.NoError(t, board.Settle(tk.ID, permission.Result{Answers: []permission.Answered{{Question: dbQ, Answer: permission.Answer{Labels: []string{"Postgres"}}}}}, permission.ByEditor()))
	assert.Equal(t, permission.SourceClient, tk.Result().Source)
}

// A claim not renewed lapses: another device may then answer without
// taking over, and GET /question names nobody.
func TestALapsedClaimNamesNobody(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	_, err := board.Claim(tk.ID, permission.By{Device: "gone", Name: "Old phone"}, 50*time.Millisecond, false)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, body := do(t, s, "GET", "/question", "", nil)
		return !strings.Contains(body, "Old phone")
	}, 5*time.Second, 20*time.Millisecond)
	code, body := do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["SQLite"]]}`, nil)
	assert.Equal(t, http.StatusOK, code, body)
}
