//go:build live

package live

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A stdio MCP server of the test's own, for the direct Gemini tests: the
// test binary re-run with probeEnv set serves one tool, ask_user_question,
// instead of running tests. It stands in for `askbridge mcp` so the tests
// pin down what Gemini CLI does with any MCP server a client lists.

const (
	probeEnv = "ASKBRIDGE_LIVE_MCP_PROBE" // the file the probe logs its calls to
	// probeTag is the variable the probe echoes: askbridge's tag, so the
	// test also shows an env entry of session/new reaching the server.
	probeTag = "ASKBRIDGE_MCP_TAG"
)

// init runs before TestMain: a re-run binary serves and exits.
func init() {
	if log := os.Getenv(probeEnv); log != "" {
		if err := serveProbe(log); err != nil {
			fmt.Fprintln(os.Stderr, "mcp probe:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// probeQuestions is the input of the probe's tool: the question set.
type probeQuestions struct {
	Questions []struct {
		Question    string `json:"question"`
		Header      string `json:"header"`
		MultiSelect bool   `json:"multiSelect"`
		Options     []struct {
			Label       string `json:"label"`
			Description string `json:"description"`
		} `json:"options"`
	} `json:"questions"`
}

// serveProbe serves until stdin closes. Every call appends its raw
// arguments to log, one line each, before it answers.
func serveProbe(log string) error {
	s := mcp.NewServer(&mcp.Implementation{Name: "askbridge-live-probe", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "ask_user_question", Description: "Asks the user questions (a probe of the live tests)."},
		func(_ context.Context, req *mcp.CallToolRequest, in probeQuestions) (*mcp.CallToolResult, any, error) {
			f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err != nil {
				return nil, nil, err
			}
			fmt.Fprintf(f, "%s\n", req.Params.Arguments)
			f.Close()
			var asked []string
			for _, q := range in.Questions {
				asked = append(asked, q.Question)
			}
			text := fmt.Sprintf("probe %s was asked %q", os.Getenv(probeTag), strings.Join(asked, " | "))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	return s.Run(context.Background(), &mcp.StdioTransport{})
}

// probe is one probe server as a session/new mcpServers entry, and its log.
type probe struct {
	Entry map[string]any
	Log   string
	Tag   string
}

// newProbe lists the test binary as a stdio MCP server named name, the way
// askbridge lists itself: an absolute command, args, env.
func newProbe(t *testing.T, name, tag string) probe {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "probe-calls.jsonl")
	return probe{Log: log, Tag: tag, Entry: map[string]any{
		"name": name, "command": self, "args": []string{"-test.run=^$"},
		"env": []map[string]string{{"name": probeEnv, "value": log}, {"name": probeTag, "value": tag}},
	}}
}

// Calls returns the raw arguments of every call the probe served so far.
func (p probe) Calls(t *testing.T) []json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(p.Log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		out = append(out, json.RawMessage(line))
	}
	return out
}
