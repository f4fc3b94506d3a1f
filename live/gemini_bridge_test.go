//go:build live

package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/testkit/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Gemini CLI through askbridge: the client lists no MCP server, askbridge
// lists `askbridge mcp` in session/new, Gemini offers its tool to the model,
// askbridge allows the tool itself, and the question reaches a client that
// only renders permission requests.

// geminiRun is Gemini CLI started through askbridge, recording the wire
// as askbridge sees it (for fixtures, see gemini_fixture_test.go).
type geminiRun struct {
	*harness.Run
	model  *fakemodel.Server
	record string // askbridge's --record file
}

func startGeminiBridged(t *testing.T, client harness.Client, calls ...string) *geminiRun {
	t.Helper()
	m := model(t, harness.Gemini.Tool, calls...)
	record := filepath.Join(t.TempDir(), "askbridge-record.jsonl")
	g := &geminiRun{model: m, record: record}
	// Registered before the run's own cleanup, so it runs once askbridge
	// has exited and flushed its recording.
	if dir := os.Getenv("ASKBRIDGE_GEMINI_FIXTURES"); dir != "" && geminiCases[t.Name()].file != "" {
		t.Cleanup(func() {
			if !t.Failed() {
				writeGeminiFixture(t, dir, g, calls)
			}
		})
	}
	g.Run = harness.Start(t, harness.Gemini, harness.Options{ModelURL: m.URL, Client: client,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--min-answer-time=0", "--record="+record)})
	_, err := g.Initialize(harness.NoFeatures)
	require.NoError(t, err)
	return g
}

// geminiTurn is one session and one prompt through askbridge, answered by p.
func geminiTurn(t *testing.T, p *permissionLog, calls ...string) (*geminiRun, string) {
	t.Helper()
	g := startGeminiBridged(t, harness.Client{RequestPermission: p.handle}, calls...)
	session, err := g.NewSession()
	require.NoError(t, err)
	stop, err := g.Prompt(session, "Ask me about the service.")
	require.NoError(t, err)
	require.True(t, g.model.Offered(), "Gemini offered no %s through askbridge; stderr:\n%s", harness.Gemini.Tool, g.Stderr())
	// The user saw questions only: askbridge allowed its own tool.
	for _, title := range p.titles() {
		assert.NotContains(t, title, "MCP Server", "the tool's permission request reached the client")
	}
	assert.Contains(t, g.Stderr(), "mcp-ask: listed askbridge's ask tool")
	assert.Contains(t, g.Stderr(), "mcp-ask: allowed one call of askbridge's ask tool")
	return g, stop
}

// untrusted is how Gemini hands an MCP tool's text to the model.
func untrusted(text string) string { return "<untrusted_context>\n" + text + "\n</untrusted_context>" }

func TestGeminiBridgedSingleQuestion(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("Postgres") }}
	g, stop := geminiTurn(t, p, dbQuestion)
	assert.Equal(t, "end_turn", stop)
	assert.Equal(t, []string{"Database"}, p.titles())
	assert.Equal(t, []string{untrusted(`"Which database should the service use?"="Postgres"`)}, g.model.ToolResults())
}

// Two calls in one turn: askbridge allows each call alone (proceed_once),
// so Gemini asks to run the tool again for the second, and askbridge
// answers that too; the user sees the two questions and nothing else.
func TestGeminiBridgedTwoCallsEachAllowedOnce(t *testing.T) {
	p := &permissionLog{answer: func(n int, _ map[string]any) string {
		if n == 1 {
			return pick("Postgres")
		}
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go"]}}}`
	}}
	g, stop := geminiTurn(t, p, dbQuestion, langQuestion)
	assert.Equal(t, "end_turn", stop)
	assert.Equal(t, []string{"Database", "Round 2 · Languages"}, p.titles())
	assert.Equal(t, 2, strings.Count(g.Stderr(), "mcp-ask: allowed one call of askbridge's ask tool"), "Gemini asked again for the second call")
	assert.NotContains(t, g.Stderr(), "proceed_always")
	assert.Equal(t, []string{untrusted(`"Which database should the service use?"="Postgres"`), untrusted(`"Which languages should the service support?"="Go"`)}, g.model.ToolResults())
}

func TestGeminiBridgedMultiSelect(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Python"]}}}`
	}}
	g, _ := geminiTurn(t, p, langQuestion)
	assert.Len(t, p.got(), 1)
	assert.Equal(t, []string{untrusted(`"Which languages should the service support?"="Go, Python"`)}, g.model.ToolResults())
}

func TestGeminiBridgedOtherWithTypedText(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`
	}}
	g, _ := geminiTurn(t, p, dbQuestion)
	assert.Equal(t, []string{untrusted(`"Which database should the service use?"="CockroachDB" (typed by the user)`)}, g.model.ToolResults())
}

// A cancelled question is a tool error the model reads, and no further
// question of the set is shown.
func TestGeminiBridgedCancel(t *testing.T) {
	p := &permissionLog{} // cancels
	g, stop := geminiTurn(t, p, twoQuestions)
	assert.Equal(t, "end_turn", stop)
	assert.Len(t, p.got(), 1, "no question after a cancel")
	res := g.model.Results()
	require.Len(t, res, 1)
	t.Logf("the model read: %q (error %v)", res[0].Text, res[0].IsError)
	assert.True(t, res[0].IsError)
	assert.Contains(t, res[0].Text, "The user cancelled the question without answering.")
}

// Two sessions prompted at once: each question is asked in the session
// whose session/new listed the server that asks it, though the other one
// was opened, and prompted, last.
func TestGeminiBridgedTwoSessions(t *testing.T) {
	var mu sync.Mutex
	asked := map[string][]string{} // session -> question texts
	both := make(chan struct{})
	answers := map[string]string{}
	client := harness.Client{RequestPermission: func(raw json.RawMessage) (any, error) {
		var p struct {
			SessionID string `json:"sessionId"`
			ToolCall  struct {
				Content []struct {
					Content struct{ Text string } `json:"content"`
				} `json:"content"`
			} `json:"toolCall"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		text := ""
		if len(p.ToolCall.Content) > 0 {
			text = p.ToolCall.Content[0].Content.Text
		}
		mu.Lock()
		asked[p.SessionID] = append(asked[p.SessionID], text)
		if len(asked) == 2 {
			select {
			case <-both:
			default:
				close(both)
			}
		}
		answer := answers[p.SessionID]
		mu.Unlock()
		// Answer only once both questions are open: two at once.
		select {
		case <-both:
			return json.RawMessage(pick(answer)), nil
		case <-time.After(time.Minute):
			mu.Lock()
			defer mu.Unlock()
			return nil, fmt.Errorf("the other session's question never came: asked %v", asked)
		}
	}}
	g := startGeminiBridged(t, client, dbQuestion)
	s1, err := g.NewSession()
	require.NoError(t, err)
	s2, err := g.NewSession()
	require.NoError(t, err)
	mu.Lock()
	answers[s1], answers[s2] = "Postgres", "SQLite"
	mu.Unlock()

	stops := make(chan error, 2)
	for _, s := range []string{s2, s1} {
		go func() {
			_, err := g.Prompt(s, "Ask me about the service.")
			stops <- err
		}()
	}
	require.NoError(t, <-stops)
	require.NoError(t, <-stops)

	// What each session's model said back quotes its own answer.
	said := agentText(g)
	mu.Lock()
	defer mu.Unlock()
	assert.Len(t, asked[s1], 1)
	assert.Len(t, asked[s2], 1)
	assert.Contains(t, said[s1], `\"Which database should the service use?\"=\"Postgres\"`)
	assert.Contains(t, said[s2], `\"Which database should the service use?\"=\"SQLite\"`)
	assert.Equal(t, 2, strings.Count(g.Stderr(), "mcp-ask: allowed one call of askbridge's ask tool"), "once per call")
}

// In turn, the same two sessions: the fixture of the case, since a replay
// plays one prompt at a time.
func TestGeminiBridgedTwoSessionsInTurn(t *testing.T) {
	var mu sync.Mutex
	answers := map[string]string{}
	p := &permissionLog{answer: func(_ int, params map[string]any) string {
		mu.Lock()
		defer mu.Unlock()
		return pick(answers[params["sessionId"].(string)])
	}}
	g := startGeminiBridged(t, harness.Client{RequestPermission: p.handle}, dbQuestion)
	s1, err := g.NewSession()
	require.NoError(t, err)
	s2, err := g.NewSession()
	require.NoError(t, err)
	mu.Lock()
	answers[s1], answers[s2] = "Postgres", "SQLite"
	mu.Unlock()
	for _, s := range []string{s2, s1} {
		stop, err := g.Prompt(s, "Ask me about the service.")
		require.NoError(t, err)
		assert.Equal(t, "end_turn", stop)
	}
	var sessions []string
	for _, params := range p.got() {
		sessions = append(sessions, params["sessionId"].(string))
	}
	assert.Equal(t, []string{s2, s1}, sessions)
	said := agentText(g)
	assert.Contains(t, said[s1], `\"Which database should the service use?\"=\"Postgres\"`)
	assert.Contains(t, said[s2], `\"Which database should the service use?\"=\"SQLite\"`)
}

// agentText is what the agent said in each session (agent_message_chunk).
func agentText(g *geminiRun) map[string]string { return sessionText(g.Lines()) }
