//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// The scripted agent askbridge runs: decisionbench itself, re-run as
// `decisionbench agent N`. On its first prompt it asks N decisions one
// after another, alternately a tool approval (session/request_permission
// of `rm -rf build-I`) and a question (askbridge's _askbridge/ask), and
// when each answer is read off its stdin it tells the editor the wall
// clock of that moment in a session/update (arrivedPrefix I NANOS), so the
// bench, in another process, can take it from the page's first request.
const (
	agentArg      = "agent"
	arrivedPrefix = "decisionbench arrived "
	sessionID     = "sess_decisionbench"
)

type rpc struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
	at     time.Time       // when the line was read
}

// agentOut writes whole JSON-RPC lines to stdout, one writer at a time.
type agentOut struct {
	mu sync.Mutex
	w  *bufio.Writer
}

func (o *agentOut) send(v map[string]any) {
	v["jsonrpc"] = "2.0"
	b, _ := json.Marshal(v)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.w.Write(append(b, '\n'))
	o.w.Flush()
}

func runAgent(n int) error {
	out := &agentOut{w: bufio.NewWriter(os.Stdout)}
	responses := make(chan rpc, 1)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var m rpc
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return fmt.Errorf("agent: malformed line %q: %w", sc.Text(), err)
		}
		m.at = time.Now()
		switch m.Method {
		case "":
			responses <- m // an answer to the turn's request
		case "initialize":
			out.send(map[string]any{"id": m.ID, "result": map[string]any{"protocolVersion": 1,
				"agentInfo": map[string]any{"name": "decisionbench-agent", "version": "1.0.0"}, "agentCapabilities": map[string]any{}, "authMethods": []any{}}})
		case "session/new":
			out.send(map[string]any{"id": m.ID, "result": map[string]any{"sessionId": sessionID}})
		case "session/prompt":
			go turn(out, responses, m.ID, n)
		default:
			if m.ID != nil {
				out.send(map[string]any{"id": m.ID, "error": map[string]any{"code": -32601, "message": "method not found: " + m.Method}})
			}
		}
	}
	return sc.Err()
}

// turn asks the n decisions of a prompt, one at a time, then ends it.
func turn(out *agentOut, responses <-chan rpc, prompt json.RawMessage, n int) {
	for i := range n {
		method, params := decision(i)
		out.send(map[string]any{"id": 1000 + i, "method": method, "params": params})
		m := <-responses
		said := fmt.Sprintf("%s%d %d", arrivedPrefix, i, m.at.UnixNano())
		if m.Error != nil || !strings.Contains(string(m.Result), wantIn(i)) {
			said = fmt.Sprintf("decisionbench: decision %d came back as %s%s", i, m.Result, m.Error)
		}
		out.send(map[string]any{"method": "session/update", "params": map[string]any{"sessionId": sessionID,
			"update": map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": said}}}})
	}
	out.send(map[string]any{"id": prompt, "result": map[string]any{"stopReason": "end_turn"}})
}

// decision is the i-th thing the agent asks: even, an approval; odd, a
// question.
func decision(i int) (string, map[string]any) {
	if i%2 == 0 {
		cmd := fmt.Sprintf("rm -rf build-%d", i)
		return "session/request_permission", map[string]any{"sessionId": sessionID,
			"toolCall": map[string]any{"toolCallId": fmt.Sprintf("call-%d", i), "title": "Run " + cmd, "kind": "execute", "rawInput": map[string]any{"command": cmd}},
			"options": []any{
				map[string]any{"optionId": "allow", "name": "Allow", "kind": "allow_once"},
				map[string]any{"optionId": "reject", "name": "Reject", "kind": "reject_once"},
			}}
	}
	return "_askbridge/ask", map[string]any{"sessionId": sessionID, "questions": []any{map[string]any{
		"question": fmt.Sprintf("Decision %d: which database?", i), "header": "Database", "multiSelect": false,
		"options": []any{map[string]any{"label": "Postgres", "description": "relational"}, map[string]any{"label": "SQLite", "description": "embedded"}}}}}
}

// wantIn is what the answer to decision i says when the page's choice (the
// first option) reached the agent.
func wantIn(i int) string {
	if i%2 == 0 {
		return `"allow"`
	}
	return "Postgres"
}
