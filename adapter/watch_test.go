package adapter

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// formsClient starts a bridge whose client renders forms, with session s1.
func formsClient(t *testing.T, opts Options) (*bridgeHarness, *permission.Board) {
	t.Helper()
	opts.Advertise = true
	opts.Board = permission.NewBoard()
	h := newBridgeHarness(t, opts)
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}}}}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	h.Client.Recv()
	require.True(t, h.bridge.ClientRendersForms())
	h.OpenSession(t, "s1")
	return h, opts.Board
}

// The client gets Claude's and Codex's forms byte for byte, and the board
// lists their questions as asked.
func TestWatchedFormIsOnTheBoardAndUntouchedAtTheClient(t *testing.T) {
	for _, c := range []struct {
		name, form, header, question string
		options                      []string
	}{
		{"claude", claudeSingle, "Database", "Which database?", []string{"Postgres", "SQLite"}},
		{"codex", codexDB, "Database", "Which database?", []string{"Postgres", "Redis"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, board := formsClient(t, Options{})
			h.Agent.Send(c.form)
			assert.Equal(t, c.form, h.Client.Recv())
			p := onBoard(t, board)
			require.Len(t, p.Questions, 1)
			assert.Equal(t, c.header, p.Questions[0].Header)
			assert.Equal(t, c.question, p.Questions[0].Question)
			var labels []string
			for _, o := range p.Questions[0].Options {
				labels = append(labels, o.Label)
			}
			assert.Equal(t, c.options, labels)
			assert.Equal(t, "s1", p.SessionID)
		})
	}
}

// Answered in the editor: its response goes to the agent as it came, and
// the board records the answer as the client's.
func TestWatchedFormAnsweredInTheEditor(t *testing.T) {
	h, board := formsClient(t, Options{})
	h.Agent.Send(claudeSingle)
	h.Client.Recv()
	p := onBoard(t, board)
	resp := `{"jsonrpc":"2.0","id":41,"result":{"action":"accept","content":{"question_0":"SQLite","question_0_custom":"with WAL"}}}`
	h.Client.Send(resp)
	assert.Equal(t, resp, h.Agent.Recv())
	done := settled(t, board, p.ID)
	assert.Equal(t, permission.SourceClient, done.Result.Source)
	assert.Equal(t, permission.StateAnswered, done.State)
	require.Len(t, done.Result.Answers, 1)
	assert.Equal(t, permission.Answer{Labels: []string{"SQLite"}, Other: true, Custom: "with WAL"}, done.Result.Answers[0].Answer)
	assert.Empty(t, board.List())
}

// Answered at the desk: the agent gets the form's own content, the client
// gets $/cancel_request for its copy, and its late answer is dropped.
func TestWatchedFormAnsweredAtTheDesk(t *testing.T) {
	for _, c := range []struct{ name, form, id, want string }{
		{"claude", claudeSingle, "41", `{"action":"accept","content":{"question_0":"Postgres"}}`},
		{"codex", codexDB, "0", `{"action":"accept","content":{"db":"Postgres"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, board := formsClient(t, Options{})
			h.Agent.Send(c.form)
			h.Client.Recv()
			p := onBoard(t, board)
			require.NoError(t, board.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{
				{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"Postgres"}}}}}, permission.ByEditor()))
			assert.JSONEq(t, c.want, string(h.AgentReply(t, c.id).Result))
			assert.JSONEq(t, fmt.Sprintf(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":%s}}`, c.id), h.Client.Recv())
			// The editor answers anyway: the agent never sees it.
			h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32800,"message":"cancelled"}}`, c.id))
			h.Agent.Send(`{"jsonrpc":"2.0","method":"ping/after"}`)
			assert.Equal(t, "ping/after", decode(t, h.Client.Recv()).Method)
			h.Client.Send(`{"jsonrpc":"2.0","method":"pong/after"}`)
			assert.Equal(t, "pong/after", decode(t, h.Agent.Recv()).Method, "the late answer was dropped")
		})
	}
}

// Nobody answers within --question-timeout: the agent gets its dialect's
// no-answer-in-time (Claude: decline; Codex: each note says so), and the
// client's form is withdrawn.
func TestWatchedFormTimesOut(t *testing.T) {
	for _, c := range []struct{ name, form, id, want string }{
		{"claude", claudeSingle, "41", `{"action":"decline"}`},
		{"codex", codexDB, "0", `{"action":"accept","content":{"db":"None of the above","db_note":"` + permission.NoAnswerInTime + `"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, board := formsClient(t, Options{QuestionTimeout: 150 * time.Millisecond})
			h.Agent.Send(c.form)
			h.Client.Recv()
			p := onBoard(t, board)
			require.NotNil(t, p.Deadline)
			assert.JSONEq(t, c.want, string(h.AgentReply(t, c.id).Result))
			assert.Contains(t, h.Client.Recv(), `"method":"$/cancel_request"`)
			assert.Equal(t, permission.StateTimeout, settled(t, board, p.ID).State)
		})
	}
}

// The agent withdraws its form: the set leaves the board, the client gets
// the agent's own cancel, and its answer to it goes on to the agent.
func TestWatchedFormWithdrawnByTheAgent(t *testing.T) {
	h, board := formsClient(t, Options{})
	h.Agent.Send(codexDB)
	h.Client.Recv()
	p := onBoard(t, board)
	cancel := `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":0}}`
	h.Agent.Send(cancel)
	assert.Equal(t, cancel, h.Client.Recv())
	assert.Equal(t, permission.StateCancelled, settled(t, board, p.ID).State)
	resp := `{"jsonrpc":"2.0","id":0,"error":{"code":-32800,"message":"Request cancelled"}}`
	h.Client.Send(resp)
	assert.Equal(t, resp, h.Agent.Recv())
}
