//go:build live

package live

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/testkit/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Copilot CLI through askbridge: the client lists no stdio server Copilot
// would take, askbridge lists its own ask tool as an http MCP server, Copilot
// offers it to the model as <server>-ask_user_question and runs it without a
// permission request (the tool is read-only), and the question reaches a
// client that only renders permission requests.

var copilotCases = map[string]fixtureCase{
	"TestCopilotBridgedSingleQuestion":     {"copilot-single", "askbridge lists its ask tool for Copilot as an http MCP server ($MCP_SERVER, a path with the session's tag and a bearer token of its own), after the client's servers; Copilot runs it with no permission request (it is read-only); the tagged question is one permission request in the session and the answer goes back as the tool's result."},
	"TestCopilotBridgedMultiSelect":        {"copilot-multi-select", "a multi-select question answered with _meta.selectedOptionIds reaches the tool as one answer, Go and Python."},
	"TestCopilotBridgedOtherWithTypedText": {"copilot-other-customtext", "Other with _meta.customText reaches the tool as the typed text, marked as typed by the user."},
	"TestCopilotBridgedCancel":             {"copilot-cancel", "a dismissed question ends the set (the second question is never shown) and the tool returns the cancelled result."},
	"TestCopilotBridgedClientServers":      {"copilot-client-servers", "the client's own http MCP server is listed first, as it came, and keeps working next to askbridge's."},
}

const copilotHeader = "Agent: @github/copilot 1.0.102 (--acp --stdio, offline: COPILOT_OFFLINE with a custom provider), recorded through askbridge with a fake model on 127.0.0.1.\nClient: no elicitation capability (fs and terminal off).\n"

// copilotRun is Copilot CLI started through askbridge.
type copilotRun struct {
	*harness.Run
	model *fakemodel.Server
}

func startCopilotBridged(t *testing.T, client harness.Client, calls ...string) *copilotRun {
	t.Helper()
	m := model(t, harness.Copilot.Tool, calls...)
	record := recordFixture(t, copilotCases, copilotHeader, calls)
	r := harness.Start(t, harness.Copilot, harness.Options{ModelURL: m.URL, Client: client, Timeout: time.Minute,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--min-answer-time=0", record)})
	_, err := r.Initialize(harness.NoFeatures)
	require.NoError(t, err)
	return &copilotRun{Run: r, model: m}
}

// session opens a session listing servers (the client's own).
func (c *copilotRun) session(t *testing.T, servers ...any) string {
	t.Helper()
	res, err := c.Call("session/new", map[string]any{"cwd": c.Home, "mcpServers": append([]any{}, servers...)})
	require.NoError(t, err)
	var created struct{ SessionID string }
	require.NoError(t, json.Unmarshal(res, &created))
	require.NotEmpty(t, created.SessionID, "session/new: %s", res)
	return created.SessionID
}

// copilotTurn is one session and one prompt through askbridge, answered by p.
func copilotTurn(t *testing.T, p *permissionLog, calls ...string) *copilotRun {
	t.Helper()
	c := startCopilotBridged(t, harness.Client{RequestPermission: p.handle}, calls...)
	stop, err := c.Prompt(c.session(t), "Ask me about the service.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	c.checkOffered(t)
	return c
}

// checkOffered checks that Copilot offered askbridge's tool, over http, and
// that the user saw questions only.
func (c *copilotRun) checkOffered(t *testing.T) {
	t.Helper()
	require.True(t, c.model.Offered(), "Copilot offered no %s through askbridge; stderr:\n%s", harness.Copilot.Tool, c.Stderr())
	assert.Contains(t, c.Stderr(), "mcp-ask: listed askbridge's ask tool")
	assert.Contains(t, c.Stderr(), "transport=http")
	assert.NotContains(t, c.Stderr(), "mcp-ask: allowed one call", "askbridge answered a permission request of Copilot's")
}

func TestCopilotBridgedSingleQuestion(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("Postgres") }}
	c := copilotTurn(t, p, dbQuestion)
	assert.Equal(t, []string{"Database"}, p.titles())
	assert.Equal(t, []string{`"Which database should the service use?"="Postgres"`}, copilotSaw(c.model))
}

func TestCopilotBridgedMultiSelect(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Python"]}}}`
	}}
	c := copilotTurn(t, p, langQuestion)
	assert.Len(t, p.got(), 1)
	assert.Equal(t, []string{`"Which languages should the service support?"="Go, Python"`}, copilotSaw(c.model))
}

func TestCopilotBridgedOtherWithTypedText(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`
	}}
	c := copilotTurn(t, p, dbQuestion)
	assert.Equal(t, []string{`"Which database should the service use?"="CockroachDB" (typed by the user)`}, copilotSaw(c.model))
}

// A dismissed question is a tool error the model reads, and no further
// question of the set is shown.
func TestCopilotBridgedCancel(t *testing.T) {
	p := &permissionLog{} // dismisses
	c := copilotTurn(t, p, twoQuestions)
	assert.Len(t, p.got(), 1, "no question after a cancel")
	res := c.model.Results()
	require.Len(t, res, 1)
	t.Logf("the model read: %q (error %v)", res[0].Text, res[0].IsError)
	assert.Contains(t, res[0].Text, "The user cancelled the question without answering.")
}

// The client's own http server is listed as it came, before askbridge's,
// and Copilot offers both servers' tools.
func TestCopilotBridgedClientServers(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("SQLite") }}
	probe := newHTTPProbe(t, true, "lookup_docs")
	c := startCopilotBridged(t, harness.Client{RequestPermission: p.handle}, dbQuestion)
	s := c.session(t, map[string]any{"type": "http", "name": "mine", "url": probe.url, "headers": []any{}})
	stop, err := c.Prompt(s, "Ask me about the service.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	c.checkOffered(t)
	var tools []string
	for _, q := range c.model.Requests() {
		if q.Offered {
			tools = offeredTools(t, q.Body)
			break
		}
	}
	assert.Contains(t, tools, "mine-lookup_docs", "the client's server was dropped")
	assert.Equal(t, []string{`"Which database should the service use?"="SQLite"`}, copilotSaw(c.model))
}

// Two sessions prompted at once: each question is asked in the session
// whose session/new listed the HTTP path it came on.
func TestCopilotBridgedTwoSessions(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{}
	answers := map[string]string{}
	both := make(chan struct{})
	client := harness.Client{RequestPermission: func(raw json.RawMessage) (any, error) {
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, err
		}
		mu.Lock()
		asked[p.SessionID]++
		if len(asked) == 2 {
			select {
			case <-both:
			default:
				close(both)
			}
		}
		answer := answers[p.SessionID]
		mu.Unlock()
		select { // answer only once both questions are open: two at once
		case <-both:
			return json.RawMessage(pick(answer)), nil
		case <-time.After(40 * time.Second):
			return nil, fmt.Errorf("the other session's question never came")
		}
	}}
	c := startCopilotBridged(t, client, dbQuestion)
	s1, s2 := c.session(t), c.session(t)
	mu.Lock()
	answers[s1], answers[s2] = "Postgres", "SQLite"
	mu.Unlock()
	stops := make(chan error, 2)
	for _, s := range []string{s2, s1} {
		go func() {
			_, err := c.Prompt(s, "Ask me about the service.")
			stops <- err
		}()
	}
	require.NoError(t, <-stops)
	require.NoError(t, <-stops)
	said := sessionText(c.Lines())
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, map[string]int{s1: 1, s2: 1}, asked)
	assert.Contains(t, said[s1], `\"Which database should the service use?\"=\"Postgres\"`)
	assert.Contains(t, said[s2], `\"Which database should the service use?\"=\"SQLite\"`)
}

// sessionText is what the agent said in each session (agent_message_chunk).
func sessionText(lines []harness.Line) map[string]string {
	said := map[string]string{}
	for _, l := range lines {
		var n struct {
			Params struct {
				SessionID string `json:"sessionId"`
				Update    struct {
					SessionUpdate string                `json:"sessionUpdate"`
					Content       struct{ Text string } `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if l.Dir == harness.FromAgent && json.Unmarshal(l.Msg, &n) == nil && n.Params.Update.SessionUpdate == "agent_message_chunk" {
			said[n.Params.SessionID] += n.Params.Update.Content.Text
		}
	}
	return said
}

// copilotSaw is the first paragraph of each tool result the model read:
// Copilot adds the structuredContent as JSON after a blank line.
func copilotSaw(m *fakemodel.Server) []string {
	var out []string
	for _, r := range m.ToolResults() {
		text, _, _ := strings.Cut(r, "\n\n")
		out = append(out, text)
	}
	return out
}
