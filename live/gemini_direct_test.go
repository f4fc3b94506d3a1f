//go:build live

package live

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/testkit/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run Gemini CLI directly, with the test's own MCP probe listed
// in session/new the way askbridge lists itself. They pin down what the
// injection relies on: Gemini offers the server's tool to the model, asks
// session/request_permission before the first call (the request askbridge
// will answer itself), passes the server's env, and hands the tool's text to
// the model.

// geminiPermissions records Gemini's permission requests and answers each
// with optionID; it also notes how many calls the probe had served by then.
type geminiPermissions struct {
	probe    probe
	optionID string
	t        *testing.T

	mu     sync.Mutex
	params []json.RawMessage
	served []int
}

func (g *geminiPermissions) answer(params json.RawMessage) (any, error) {
	served := len(g.probe.Calls(g.t))
	g.mu.Lock()
	defer g.mu.Unlock()
	g.params = append(g.params, params)
	g.served = append(g.served, served)
	return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": g.optionID}}, nil
}

func TestGeminiDirectMCPTool(t *testing.T) {
	cases := []struct {
		name     string
		optionID string
		calls    []string
		// wantServed is how many calls reach the probe.
		wantServed int
	}{
		// Allowed for the server: one request, then both calls run.
		{name: "allowed for the server", optionID: "proceed_always_server", calls: []string{dbQuestion, langQuestion}, wantServed: 2},
		// Refused: the probe never runs and the model reads an error.
		{name: "cancelled", optionID: "cancel", calls: []string{dbQuestion}, wantServed: 0},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			m := model(t, harness.Gemini.Tool, c.calls...)
			p := newProbe(t, "askbridge", "tag-"+strings.ReplaceAll(c.name, " ", "-"))
			perms := &geminiPermissions{probe: p, optionID: c.optionID, t: t}
			r := harness.Start(t, harness.Gemini, harness.Options{ModelURL: m.URL, Client: harness.Client{RequestPermission: perms.answer}})

			info, err := r.Initialize(harness.NoFeatures)
			require.NoError(t, err)
			t.Logf("initialize: %s", info)
			res, err := r.Call("session/new", map[string]any{"cwd": r.Home, "mcpServers": []any{p.Entry}})
			require.NoError(t, err)
			var created struct {
				SessionID string `json:"sessionId"`
			}
			require.NoError(t, json.Unmarshal(res, &created))
			require.NotEmpty(t, created.SessionID, "session/new: %s", res)
			stop, err := r.Prompt(created.SessionID, "Ask me about the service.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)

			for _, q := range m.Requests() {
				assert.Regexp(t, `^/v1beta/models/[^/:]+:(generateContent|streamGenerateContent\?alt=sse)$`, q.Path, "a call the fake model does not serve")
			}
			// The model was offered the tool, under the server's name, with
			// the one field Gemini adds to every MCP tool.
			require.True(t, m.Offered(), "the model never saw %s: is the folder trusted?", harness.Gemini.Tool)
			decl := offeredDeclaration(t, m.Requests(), "mcp_askbridge_"+harness.Gemini.Tool)
			t.Logf("the tool as the model sees it: %s", decl)
			assert.Contains(t, string(decl), "wait_for_previous")

			checkGeminiServerApproval(t, perms, created.SessionID)

			// The probe got the model's input as is: Gemini's own field
			// stripped, nothing else changed.
			calls := p.Calls(t)
			require.Len(t, calls, c.wantServed)
			for i, args := range calls {
				assert.JSONEq(t, c.calls[i], string(args), "call %d", i)
			}

			// What the model read back.
			results := m.Results()
			require.Len(t, results, len(c.calls))
			for i, res := range results {
				t.Logf("the model read for call %d: %q (error %v)", i, res.Text, res.IsError)
				if c.wantServed == 0 {
					assert.True(t, res.IsError)
					assert.Contains(t, res.Text, "canceled by the user")
					continue
				}
				var q struct {
					Questions []struct{ Question string } `json:"questions"`
				}
				require.NoError(t, json.Unmarshal([]byte(c.calls[i]), &q))
				want := fmt.Sprintf("probe %s was asked %q", p.Tag, q.Questions[0].Question)
				assert.Equal(t, "<untrusted_context>\n"+want+"\n</untrusted_context>", res.Text)
				assert.False(t, res.IsError)
			}
		})
	}
}

// offeredDeclaration finds the function declaration named name in the
// requests the model was sent.
func offeredDeclaration(t *testing.T, reqs []fakemodel.Request, name string) json.RawMessage {
	t.Helper()
	for _, r := range reqs {
		var body struct {
			Tools []struct {
				FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
			} `json:"tools"`
		}
		if json.Unmarshal(r.Body, &body) != nil {
			continue
		}
		for _, tool := range body.Tools {
			for _, d := range tool.FunctionDeclarations {
				var n struct{ Name string }
				if json.Unmarshal(d, &n) == nil && n.Name == name {
					return d
				}
			}
		}
	}
	t.Fatalf("no request declared %s", name)
	return nil
}

// checkGeminiServerApproval checks the one permission request Gemini sent
// for the MCP server in session sessionID, before the probe served anything.
func checkGeminiServerApproval(t *testing.T, perms *geminiPermissions, sessionID string) {
	t.Helper()
	perms.mu.Lock()
	params, served := perms.params, perms.served
	perms.mu.Unlock()
	require.Len(t, params, 1, "one request for the server, however many calls")
	assert.Equal(t, 0, served[0], "the request comes before the first call")
	t.Logf("session/request_permission: %s", params[0])
	var req struct {
		SessionID string `json:"sessionId"`
		ToolCall  struct {
			ToolCallID string `json:"toolCallId"`
			Title      string `json:"title"`
			Kind       string `json:"kind"`
		} `json:"toolCall"`
		Options []struct {
			OptionID string `json:"optionId"`
			Kind     string `json:"kind"`
		} `json:"options"`
	}
	require.NoError(t, json.Unmarshal(params[0], &req))
	assert.Equal(t, sessionID, req.SessionID)
	assert.Equal(t, "ask_user_question (askbridge MCP Server)", req.ToolCall.Title)
	assert.Equal(t, "other", req.ToolCall.Kind)
	var options []string
	for _, o := range req.Options {
		options = append(options, o.OptionID+"/"+o.Kind)
	}
	assert.Equal(t, []string{"proceed_always_server/allow_always", "proceed_always_tool/allow_always", "proceed_once/allow_once", "cancel/reject_once"}, options)
}
