package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Cursor end-to-end tests run the built askbridge with a scripted
// Cursor: the test binary, re-executed with ASKBRIDGE_E2E_CURSOR set, plays
// `agent acp` sending exactly the shapes Cursor documents for its
// extension methods. The client knows none of them: it answers -32601, as
// Zed does.
//
// With ASKBRIDGE_RECORD_DIR set, each test records the exchange there
// (askbridge --record), the source of conformance/testdata/cursor-*.txtar.

func init() {
	// Before TestMain: this process is the scripted Cursor, not the tests.
	if os.Getenv("ASKBRIDGE_E2E_CURSOR") != "" {
		scriptedCursor()
		os.Exit(0)
	}
}

// scriptedCursor answers initialize and session/new, and on session/prompt
// does what the prompt's text says, {"method": M, "params": P} with P as
// Cursor sends it (no sessionId): it starts tool call P.toolCallId in the
// prompt's session, sends M as a request, and reports the answer as an
// agent_message_chunk holding its JSON before ending the turn. With
// "notify": true, M goes out as a notification instead.
func scriptedCursor() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<26)
	a := &cursorAgent{out: agentOut(), pending: map[string]cursorTurn{}}
	for in.Scan() {
		var msg cursorMsg
		if json.Unmarshal(in.Bytes(), &msg) != nil {
			continue
		}
		switch msg.Method {
		case "":
			a.answered(msg)
		case "initialize":
			a.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"protocolVersion": 1,
				"agentCapabilities": map[string]any{"loadSession": true}, "authMethods": []any{map[string]any{"id": "cursor_login", "name": "Cursor Login"}},
				"_meta": map[string]any{"sawClientCapabilities": json.RawMessage(msg.Params)}}})
		case "session/new":
			a.seq++
			a.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"sessionId": fmt.Sprintf("cursor-session-%d", a.seq)}})
		case "session/prompt":
			a.prompt(msg)
		default:
			if msg.ID != nil {
				a.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "error": map[string]any{"code": -32601, "message": "unknown " + msg.Method}})
			}
		}
	}
}

// cursorAgent is the scripted Cursor's state: its writer, and the turns
// waiting on the client's answer to a request it sent, by that request's id.
type cursorAgent struct {
	mu      sync.Mutex
	out     io.Writer
	pending map[string]cursorTurn
	seq     int
}

type cursorTurn struct {
	promptID        json.RawMessage
	session, callID string
}

type cursorMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func (a *cursorAgent) send(v any) {
	b, _ := json.Marshal(v)
	a.mu.Lock()
	a.out.Write(append(b, '\n'))
	a.mu.Unlock()
}

func (a *cursorAgent) update(session string, u map[string]any) {
	a.send(map[string]any{"jsonrpc": "2.0", "method": "session/update", "params": map[string]any{"sessionId": session, "update": u}})
}

// answered ends the turn waiting on the client's answer msg: it says what
// it saw, completes the tool call and ends the prompt.
func (a *cursorAgent) answered(msg cursorMsg) {
	t, ok := a.pending[string(msg.ID)]
	if !ok {
		return
	}
	delete(a.pending, string(msg.ID))
	saw := string(msg.Result)
	if msg.Error != nil {
		saw = `{"error":` + string(msg.Error) + `}`
	}
	a.update(t.session, map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": saw}})
	a.update(t.session, map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": t.callID, "status": "completed"})
	a.send(map[string]any{"jsonrpc": "2.0", "id": t.promptID, "result": map[string]any{"stopReason": "end_turn"}})
}

// prompt sends the request (or notification) the prompt's text names.
func (a *cursorAgent) prompt(msg cursorMsg) {
	var p struct {
		SessionID string `json:"sessionId"`
		Prompt    []struct {
			Text string `json:"text"`
		} `json:"prompt"`
	}
	json.Unmarshal(msg.Params, &p)
	var do struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Notify bool            `json:"notify"`
	}
	if len(p.Prompt) == 0 || json.Unmarshal([]byte(p.Prompt[0].Text), &do) != nil {
		a.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"stopReason": "end_turn"}})
		return
	}
	var call struct {
		ToolCallID string `json:"toolCallId"`
	}
	json.Unmarshal(do.Params, &call)
	a.update(p.SessionID, map[string]any{"sessionUpdate": "tool_call", "toolCallId": call.ToolCallID, "title": do.Method, "kind": "other", "status": "pending"})
	if do.Notify {
		a.send(map[string]any{"jsonrpc": "2.0", "method": do.Method, "params": do.Params})
		a.send(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": map[string]any{"stopReason": "end_turn"}})
		return
	}
	a.seq++
	a.pending[fmt.Sprint(a.seq)] = cursorTurn{promptID: msg.ID, session: p.SessionID, callID: call.ToolCallID}
	a.send(map[string]any{"jsonrpc": "2.0", "id": a.seq, "method": do.Method, "params": do.Params})
}

// startCursor starts askbridge with the scripted Cursor and opens a session.
func startCursor(t *testing.T) (*client, string) {
	t.Setenv("ASKBRIDGE_E2E_CURSOR", "1")
	var flags []string
	if dir := os.Getenv("ASKBRIDGE_RECORD_DIR"); dir != "" {
		flags = []string{"--record", filepath.Join(dir, strings.TrimPrefix(t.Name(), "TestE2ECursor")+".jsonl")}
	}
	c := startClient(t, flags...)
	return c, c.setup()
}

// cursorPrompt makes the scripted Cursor send method with params.
func (c *client) cursorPrompt(session, method string, params any, notify bool) string {
	text := jsonString(map[string]any{"method": method, "params": params, "notify": notify})
	return c.request("session/prompt", map[string]any{"sessionId": session, "prompt": []any{map[string]any{"type": "text", "text": text}}})
}

// unknown answers the forwarded request of method as a client that does
// not know it.
func (c *client) unknown(method string) {
	req := c.next(func(m map[string]any) bool { return m["method"] == method })
	c.send(map[string]any{"jsonrpc": "2.0", "id": req["id"], "error": map[string]any{"code": -32601, "message": "Method not found"}})
}

var cursorStorage = map[string]any{"toolCallId": "tool_ask_1", "title": "Storage", "questions": []any{
	map[string]any{"id": "db", "prompt": "Which database?", "options": []any{
		map[string]any{"id": "pg", "label": "Postgres"}, map[string]any{"id": "lite", "label": "SQLite"}}},
}}

func TestE2ECursorAnsweredSingleAndMulti(t *testing.T) {
	c, s := startCursor(t)
	turn := c.cursorPrompt(s, "cursor/ask_question", map[string]any{"toolCallId": "tool_ask_1", "title": "Setup", "questions": []any{
		map[string]any{"id": "db", "prompt": "Which database?", "options": []any{
			map[string]any{"id": "pg", "label": "Postgres"}, map[string]any{"id": "lite", "label": "SQLite"}}},
		map[string]any{"id": "langs", "prompt": "Which languages?", "allowMultiple": true, "options": []any{
			map[string]any{"id": "go", "label": "Go"}, map[string]any{"id": "rs", "label": "Rust"}, map[string]any{"id": "c", "label": "C"}}},
	}}, false)
	c.unknown("cursor/ask_question")
	req := c.permissionRequest()
	params := jsonString(req["params"])
	assert.Contains(t, params, `"sessionId":"`+s+`"`)
	assert.Contains(t, params, `"toolCallId":"tool_ask_1"`, "shown on Cursor's own tool call")
	assert.Contains(t, params, `"title":"Which database? (1/2)"`)
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"SQLite"}}`)
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","C"]}}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["lite"]},{"questionId":"langs","selectedOptionIds":["go","c"]}]}}`, c.agentSaw())
	assert.Equal(t, "end_turn", c.response(turn)["result"].(map[string]any)["stopReason"])
}

func TestE2ECursorDismissalCancels(t *testing.T) {
	c, s := startCursor(t)
	c.cursorPrompt(s, "cursor/ask_question", cursorStorage, false)
	c.unknown("cursor/ask_question")
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, c.agentSaw())
}

func TestE2ECursorOtherTextSkips(t *testing.T) {
	c, s := startCursor(t)
	c.cursorPrompt(s, "cursor/ask_question", cursorStorage, false)
	c.unknown("cursor/ask_question")
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"skipped","reason":"CockroachDB"}}`, c.agentSaw())
}

var cursorBuildPlan = map[string]any{"toolCallId": "tool_plan_1", "name": "Build the app", "overview": "A small HTTP server.",
	"plan": "1. Create the server.\n2. Add a health check.", "todos": []any{
		map[string]any{"id": "t1", "content": "Create the server", "status": "pending"},
		map[string]any{"id": "t2", "content": "Add a health check", "status": "pending"}}}

func TestE2ECursorPlanAccepted(t *testing.T) {
	c, s := startCursor(t)
	c.cursorPrompt(s, "cursor/create_plan", cursorBuildPlan, false)
	c.unknown("cursor/create_plan")
	req := c.permissionRequest()
	params := jsonString(req["params"])
	assert.Contains(t, params, `"title":"Build the app"`)
	assert.Contains(t, params, `A small HTTP server.\n\n1. Create the server.\n2. Add a health check.`, "the plan is in the tool call's content")
	assert.Contains(t, params, `"optionId":"Accept"`)
	assert.Contains(t, params, `"optionId":"Reject"`)
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"Accept"}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"accepted"}}`, c.agentSaw())
}

func TestE2ECursorPlanRejectedWithReason(t *testing.T) {
	c, s := startCursor(t)
	c.cursorPrompt(s, "cursor/create_plan", cursorBuildPlan, false)
	c.unknown("cursor/create_plan")
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"Add tests first"}}}`)
	assert.JSONEq(t, `{"outcome":{"outcome":"rejected","reason":"Add tests first"}}`, c.agentSaw())
}

func TestE2ECursorTodosArePlanUpdates(t *testing.T) {
	c, s := startCursor(t)
	c.cursorPrompt(s, "cursor/update_todos", map[string]any{"toolCallId": "tool_todos_1", "merge": false, "todos": []any{
		map[string]any{"id": "1", "content": "Write the handler", "status": "completed"},
		map[string]any{"id": "2", "content": "Cover the edge case", "status": "in_progress"}}}, false)
	c.unknown("cursor/update_todos")
	plan := c.next(func(m map[string]any) bool {
		return m["method"] == "session/update" && strings.Contains(jsonString(m), `"sessionUpdate":"plan"`)
	})
	assert.JSONEq(t, `{"sessionId":"`+s+`","update":{"sessionUpdate":"plan","entries":[
		{"content":"Write the handler","priority":"medium","status":"completed"},
		{"content":"Cover the edge case","priority":"medium","status":"in_progress"}]}}`, jsonString(plan["params"]))
	assert.JSONEq(t, `{}`, c.agentSaw())
}

func TestE2ECursorClientThatImplementsAskQuestionKeepsIt(t *testing.T) {
	c, s := startCursor(t)
	turn := c.cursorPrompt(s, "cursor/ask_question", cursorStorage, false)
	fwd := c.next(func(m map[string]any) bool {
		require.NotEqual(t, "session/request_permission", m["method"], "a client that knows the method is not asked another way")
		return m["method"] == "cursor/ask_question"
	})
	assert.JSONEq(t, jsonString(cursorStorage), jsonString(fwd["params"]), "forwarded as Cursor sent it")
	own := `{"outcome":{"outcome":"answered","answers":[{"questionId":"db","selectedOptionIds":["pg"]}]}}`
	c.reply(fwd, own)
	assert.JSONEq(t, own, c.agentSaw())
	c.next(func(m map[string]any) bool {
		require.NotEqual(t, "session/request_permission", m["method"])
		return m["id"] == turn
	})
}
