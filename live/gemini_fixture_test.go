//go:build live

package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/conformance"
)

// Conformance fixtures from the Gemini runs. ASKBRIDGE_GEMINI_FIXTURES=DIR
// makes each bridged Gemini test write DIR/gemini-<case>.txtar from
// askbridge's --record file: the client and agent sections as they went
// over ACP. Then copy them to conformance/testdata and fill the want
// sections with `go test ./conformance -run TestFixtures/gemini -update`.
//
// One thing does not travel over ACP: the MCP server's question, which
// `askbridge mcp` (a child of Gemini) sends over the ask socket. The agent
// section carries it as the _askbridge/ask request it is, with the tag
// askbridge gave the session written $MCP_TAG_<k> (the k-th session): the
// replay's agent puts in the tag it received, and askbridge answers it
// over ACP instead of the socket. It goes where the server asked: just
// before Gemini reports the tool call done.

// geminiCases says what each fixture proves, by test name; a test not
// listed writes none.
var geminiCases = map[string]struct{ file, proves string }{
	"TestGeminiBridgedSingleQuestion":     {"gemini-single", "askbridge lists `askbridge mcp` after the client's servers in session/new, tagged; answers Gemini's permission request for that tool itself, for that one call (proceed_once; the client never sees it; the server's name is random per run, $MCP_SERVER here); the tagged question is one permission request in the session, the answer goes back as the result `askbridge mcp` reads."},
	"TestGeminiBridgedMultiSelect":        {"gemini-multi-select", "a multi-select question answered with _meta.selectedOptionIds reaches the MCP server as one answer, Go and Python."},
	"TestGeminiBridgedOtherWithTypedText": {"gemini-other-customtext", "Other with _meta.customText reaches the MCP server as the typed text, marked custom."},
	"TestGeminiBridgedCancel":             {"gemini-cancel", "a cancelled question ends the set (the second question is never shown) and the MCP server gets the cancelled result."},
	"TestGeminiBridgedTwoSessionsInTurn":  {"gemini-two-sessions", "two sessions, prompted one after the other (the second created first): each session/new gets its own tag, askbridge allows each call of its tool, and each tagged question is asked in its own session. (TestGeminiBridgedTwoSessions runs them at once, which a replay cannot.)"},
}

func writeGeminiFixture(t *testing.T, dir string, g *geminiRun, calls []string) {
	c := geminiCases[t.Name()]
	data, err := os.ReadFile(g.record)
	if err != nil {
		t.Errorf("fixture %s: %v", c.file, err)
		return
	}
	f, err := conformance.FromRecording(c.file, data)
	if err != nil {
		t.Errorf("fixture %s: %v", c.file, err)
		return
	}
	f.Agent, err = withMCPAsks(f.Agent, calls)
	if err != nil {
		t.Errorf("fixture %s: %v", c.file, err)
		return
	}
	f.Comment = fmt.Sprintf(`Agent: @google/gemini-cli 0.61.0 (--acp), recorded through askbridge with a fake model on 127.0.0.1.
Client: no elicitation capability (fs and terminal off); it lists no MCP server.
Proves: %s
The _askbridge/ask lines of the agent section stand for the question `+"`askbridge mcp`"+` sent over the ask socket (see live/gemini_fixture_test.go).
`, c.proves)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Error(err)
		return
	}
	path := filepath.Join(dir, c.file+".txtar")
	if err := os.WriteFile(path, f.Format(), 0o644); err != nil {
		t.Error(err)
		return
	}
	t.Logf("wrote %s", path)
}

// withMCPAsks puts the MCP server's question before each tool_call_update
// that ends a call of askbridge's tool (Gemini's call id names the tool;
// Copilot's tool_call is titled <server>-<tool>): the n-th call of a session asks
// calls[n], tagged with its session's order of creation.
func withMCPAsks(agent [][]byte, calls []string) ([][]byte, error) {
	order := map[string]int{}         // session -> k, counting session/new responses
	done := map[string]int{}          // session -> calls ended so far
	copilotCalls := map[string]bool{} // Copilot's call ids of askbridge's tool
	var out [][]byte
	asks := 0
	for _, line := range agent {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result struct {
				SessionID string `json:"sessionId"`
			} `json:"result"`
			Params struct {
				SessionID string `json:"sessionId"`
				Update    struct {
					SessionUpdate string `json:"sessionUpdate"`
					ToolCallID    string `json:"toolCallId"`
					Title         string `json:"title"`
					Status        string `json:"status"`
				} `json:"update"`
			} `json:"params"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			return nil, err
		}
		if m.Method == "" && m.Result.SessionID != "" {
			if _, seen := order[m.Result.SessionID]; !seen {
				order[m.Result.SessionID] = len(order) + 1
			}
		}
		u := m.Params.Update
		if u.SessionUpdate == "tool_call" && u.Title == conformance.MCPServer+"-ask_user_question" {
			copilotCalls[u.ToolCallID] = true // Copilot CLI's call of it, whatever the model named it
		}
		ours := strings.HasPrefix(u.ToolCallID, "mcp_"+conformance.MCPServer+"_ask_user_question") || copilotCalls[u.ToolCallID]
		if u.SessionUpdate == "tool_call_update" && ours && (u.Status == "completed" || u.Status == "failed") {
			s := m.Params.SessionID
			n := done[s]
			done[s]++
			if n >= len(calls) || order[s] == 0 {
				return nil, fmt.Errorf("call %d of session %s: not in the script or the session is unknown", n, s)
			}
			var in struct {
				Questions json.RawMessage `json:"questions"`
			}
			if err := json.Unmarshal([]byte(calls[n]), &in); err != nil {
				return nil, err
			}
			asks++
			ask, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": fmt.Sprintf("mcp-%d", asks), "method": "_askbridge/ask",
				"params": map[string]any{"questions": in.Questions, "mcpTag": fmt.Sprintf("$MCP_TAG_%d", order[s]), "format": "result"}})
			out = append(out, ask)
		}
		out = append(out, line)
	}
	if asks == 0 {
		return nil, fmt.Errorf("no call of askbridge's tool ended in the recording")
	}
	return out, nil
}
