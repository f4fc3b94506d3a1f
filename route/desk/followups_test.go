package desk

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const authAsk = `{"jsonrpc":"2.0","id":"ask-1","method":"_askbridge/ask","params":{"sessionId":"s1","questions":[
	{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"None"}],
	 "followUps":{"OAuth":[{"question":"Which provider?","header":"Provider","options":[{"label":"GitHub"},{"label":"Google"}]}]}},
	{"question":"Which database?","header":"DB","options":[{"label":"Postgres"},{"label":"SQLite"}]}]}}`

// The desk answers a set whose picked option has follow-ups: it lists them,
// asks them as the next step, and the agent gets every answer, the
// follow-up's included, as it would from the client.
func TestDeskAsksFollowUpsAndTheAgentGetsThem(t *testing.T) {
	b := newBridged(t)
	s := b.desk
	b.send(b.fromAgent, compact(authAsk))
	b.expect(b.toClient, "session/request_permission")

	var list []wirePending
	code, body := do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code)
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.Len(t, list, 1)
	id := list[0].ID
	require.Contains(t, list[0].Questions[0].FollowUps, "OAuth", "GET /question shows the follow-ups: %s", body)
	assert.Equal(t, "Which provider?", list[0].Questions[0].FollowUps["OAuth"][0].Question)

	code, body = do(t, s, "POST", "/question/"+id+"/reply", `{"answers":[["OAuth"],["SQLite"]],"step":0}`, nil)
	require.Equal(t, 200, code, body)
	b.quiet(b.toAgent, `"ask-1"`, 200*time.Millisecond) // the agent waits for the follow-up

	code, body = do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code)
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.Len(t, list, 1, body)
	assert.Equal(t, 1, list[0].Step)
	require.Len(t, list[0].Questions, 1)
	assert.Equal(t, "Which provider?", list[0].Questions[0].Question)
	assert.Equal(t, `questions[0].followUps["OAuth"][0]`, list[0].Questions[0].Path)
	assert.Equal(t, []wireAnswer{{Path: "questions[0]", Header: "Auth", Question: "Which auth?", Answer: "OAuth"}, {Path: "questions[1]", Header: "DB", Question: "Which database?", Answer: "SQLite"}}, list[0].Answered)

	code, body = do(t, s, "POST", "/question/"+id+"/reply", `{"answers":[["None"],["SQLite"]],"step":0}`, nil)
	assert.Equal(t, 409, code, "a second tab answering the step that moved on: "+body)
	assert.Contains(t, body, "follow-ups")
	code, body = do(t, s, "POST", "/api/task/answer", `{"session_id":"s1","question_id":"`+id+`","answer":"Google","step":1}`, nil)
	require.Equal(t, 200, code, body)
	assert.Contains(t, body, `"done":true`)

	var r struct {
		Result struct {
			Behavior     string
			UpdatedInput struct{ Answers map[string]string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(b.expect(b.toAgent, `"ask-1"`)), &r))
	assert.Equal(t, "allow", r.Result.Behavior)
	assert.Equal(t, map[string]string{"Which auth?": "OAuth", "Which database?": "SQLite", "Which provider?": "Google"}, r.Result.UpdatedInput.Answers)
	b.expect(b.toClient, "$/cancel_request")

	code, body = do(t, s, "GET", "/api/session/s1/history", "", nil)
	require.Equal(t, 200, code)
	assert.Contains(t, body, `"Which provider?":"Google"`, "the history keeps the follow-up's answer")
}

// A follow-up-free pick still answers in one step.
func TestDeskAnswerWithoutFollowUpsIsOneStep(t *testing.T) {
	b := newBridged(t)
	b.send(b.fromAgent, compact(authAsk))
	b.expect(b.toClient, "session/request_permission")
	var list []wirePending
	_, body := do(t, b.desk, "GET", "/question", "", nil)
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	code, body := do(t, b.desk, "POST", "/question/"+list[0].ID+"/reply", `{"answers":[["None"],["Postgres"]]}`, nil)
	require.Equal(t, 200, code, body)
	assert.Contains(t, b.expect(b.toAgent, `"ask-1"`), `"answers":{"Which auth?":"None","Which database?":"Postgres"}`)
}

func compact(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
