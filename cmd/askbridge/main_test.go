package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// askbridgeBin is the binary the end-to-end tests run, built once.
var askbridgeBin string

// TestMain builds askbridge for the end-to-end tests, and lets the test
// binary play a scripted agent when re-executed with ASKBRIDGE_E2E_AGENT.
func TestMain(m *testing.M) {
	if os.Getenv("ASKBRIDGE_E2E_AGENT") != "" {
		scriptedAgent()
		return
	}
	dir, err := os.MkdirTemp("", "askbridge-e2e")
	if err != nil {
		panic(err)
	}
	askbridgeBin = filepath.Join(dir, "askbridge")
	if out, err := exec.Command("go", "build", "-race", "-o", askbridgeBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building askbridge: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// scriptedAgent is a minimal ACP agent. On session/prompt it asks what the
// prompt text says: a JSON object {"method": M, "params": P} is sent to the
// client as request M (with sessionId filled in); the response goes back as
// an agent_message_chunk holding its JSON, then the turn ends.
func scriptedAgent() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<26)
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	send := func(v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
		mu.Unlock()
	}
	pending := map[string]func(json.RawMessage){}
	var pmu sync.Mutex
	seq := 0
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			continue
		}
		if msg.Method == "" {
			pmu.Lock()
			cb := pending[string(msg.ID)]
			delete(pending, string(msg.ID))
			pmu.Unlock()
			if cb != nil {
				if msg.Error != nil {
					cb(json.RawMessage(`{"error":` + string(msg.Error) + `}`))
				} else {
					cb(msg.Result)
				}
			}
			continue
		}
		switch msg.Method {
		case "initialize":
			send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "_meta": map[string]any{"sawClientCapabilities": json.RawMessage(msg.Params)}}})
		case "session/new":
			seq++
			send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"sessionId": fmt.Sprintf("sess_%d", seq)}})
		case "session/prompt":
			var p struct {
				SessionID string `json:"sessionId"`
				Prompt    []struct {
					Text string `json:"text"`
				} `json:"prompt"`
			}
			json.Unmarshal(msg.Params, &p)
			var ask struct {
				Method string         `json:"method"`
				Params map[string]any `json:"params"`
			}
			if len(p.Prompt) == 0 || json.Unmarshal([]byte(p.Prompt[0].Text), &ask) != nil {
				send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"stopReason": "end_turn"}})
				continue
			}
			if ask.Method == "shell" {
				// Run a command as an agent's shell tool would, with the
				// environment askbridge gave the agent; report its output.
				go func(id json.RawMessage, session string, argv []any) {
					var args []string
					for _, a := range argv {
						args = append(args, a.(string))
					}
					cmd := exec.Command(args[0], args[1:]...)
					var stderr strings.Builder
					cmd.Stderr = &stderr
					out, err := cmd.Output()
					code := 0
					if ee, ok := err.(*exec.ExitError); ok {
						code = ee.ExitCode()
					}
					text := fmt.Sprintf("exit=%d stdout=%s stderr=%s", code, out, stderr.String())
					send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": session, "update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": text}}}})
					send(map[string]any{"jsonrpc": "2.0", "id": id, "result": map[string]any{"stopReason": "end_turn"}})
				}(msg.ID, p.SessionID, ask.Params["argv"].([]any))
				continue
			}
			ask.Params["sessionId"] = p.SessionID
			seq++
			reqID := fmt.Sprintf(`"agent-%d"`, seq)
			promptID := msg.ID
			session := p.SessionID
			pmu.Lock()
			pending[reqID] = func(result json.RawMessage) {
				send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": session, "update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": string(result)}}}})
				send(map[string]any{"jsonrpc": "2.0", "id": promptID, "result": map[string]any{"stopReason": "end_turn"}})
			}
			pmu.Unlock()
			send(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(reqID), "method": ask.Method, "params": ask.Params})
		default:
			if msg.ID != nil {
				send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "unknown " + msg.Method}})
			}
		}
	}
}

// e2eAgentCommand is the command line that runs the scripted agent.
func e2eAgentCommand(t *testing.T) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "-test.run=^$"}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func hasPrefixAny(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
