package desk

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A secret typed at the desk reaches the agent; the desk itself shows the
// placeholder wherever it shows answers: the answers so far of a set at
// its follow-ups, the session's history, the event stream.
func TestDeskShowsNoSecretAnswer(t *testing.T) {
	const typed = "d3sk-s3cr3t"
	s, board := newDesk(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.base()+"/event", nil)
	sign(t, s, req)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	stream := bufio.NewScanner(resp.Body)
	stream.Scan() // subscribed

	token := permission.Question{Question: "Which deploy token?", Header: "Token", Kind: permission.Secret,
		Options: []permission.Option{{Label: "Staging"}, {Label: "Production"}}}
	db := dbQ
	db.FollowUps = map[string][]permission.Question{"Postgres": {{Question: "Which version?", Header: "Version", Options: []permission.Option{{Label: "16"}, {Label: "17"}}}}}
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{token, db}, Round: 1})

	code, list := do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code)
	assert.Contains(t, list, `"header":"Token","options":[{"label":"Staging"},{"label":"Production"}],"multiple":false,"path":"questions[0]","secret":true`,
		"the page knows to hide the typing")
	code, body := do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["`+typed+`"],["Postgres"]],"step":0}`, nil)
	require.Equal(t, 200, code, body)
	code, list = do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code)
	assert.Contains(t, list, `"answer":"`+permission.SecretText+`"`, "the answers so far")
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["17"]],"step":1}`, nil)
	require.Equal(t, 200, code, body)
	assert.Equal(t, typed, tk.Result().Answers[0].Answer.Custom, "the agent gets what was typed")

	code, hist := do(t, s, "GET", "/api/session/s1/history", "", nil)
	require.Equal(t, 200, code)
	assert.Contains(t, hist, `"Which deploy token?":"`+permission.SecretText+`"`)
	var events strings.Builder
	for n := 0; n < 3 && stream.Scan(); {
		events.WriteString(stream.Text() + "\n")
		if strings.HasPrefix(stream.Text(), "event: ") {
			n++
		}
	}
	stream.Scan() // the last event's data
	events.WriteString(stream.Text())
	assert.Contains(t, events.String(), "question.replied")
	for what, text := range map[string]string{"list": list, "history": hist, "events": events.String()} {
		assert.NotContains(t, text, typed, what)
	}
}
