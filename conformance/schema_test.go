package conformance

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	schemaOnce   sync.Once
	schemaLoaded *acpSchema
	schemaErr    error
)

func acpSchemaForTest(t *testing.T) *acpSchema {
	t.Helper()
	schemaOnce.Do(func() { schemaLoaded, schemaErr = loadACPSchema(acpSchemaFile) })
	require.NoError(t, schemaErr)
	return schemaLoaded
}

// TestSchemaFixtures validates every message askbridge itself writes in the
// fixtures (their want sections, less the lines it relays unchanged)
// against the official ACP schema: a request's params, a notification's
// params, a response's result by the method of the request it answers, an
// error as the schema's Error; and it lets no member through that the
// schema does not declare, unless deliberate.
func TestSchemaFixtures(t *testing.T) {
	s := acpSchemaForTest(t)
	shapes := map[string]bool{}
	defs := map[string]int{}
	unknown := map[string]int{}
	messages := 0
	for _, file := range fixtures(t) {
		f, err := Load(file)
		require.NoError(t, err)
		sides, err := authoredLines(f)
		require.NoError(t, err, file)
		for _, a := range sides {
			for _, line := range a.lines {
				c := s.check(line, a.requests)
				if err := c.problem(); err != nil {
					t.Errorf("%s: to the %s: %s (%s): %v\n  %s", filepath.Base(file), a.side, c.what, c.def, err, trimLine(line))
					continue
				}
				if c.def == "" {
					unknown[c.what]++
					continue
				}
				messages++
				defs[c.def]++
				shapes[c.shape] = true
			}
		}
	}
	t.Logf("checked %d messages askbridge writes, %d shapes, against %v", messages, len(shapes), defs)
	t.Logf("not in the schema, not checked: %v", unknown)
	// What askbridge is for must have been checked, or this test proves nothing.
	for _, def := range []string{"InitializeRequest", "RequestPermissionRequest", "RequestPermissionResponse",
		"SessionNotification", "CreateElicitationResponse", "CancelRequestNotification"} {
		assert.Positive(t, defs[def], "no %s among the messages checked", def)
	}
}

func trimLine(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

func TestSchemaMethodTables(t *testing.T) {
	s := acpSchemaForTest(t)
	assert.Equal(t, "InitializeRequest", s.params["initialize"])
	assert.Equal(t, "RequestPermissionRequest", s.params["session/request_permission"])
	assert.Equal(t, "RequestPermissionResponse", s.results["session/request_permission"])
	assert.Equal(t, "CreateElicitationResponse", s.results["elicitation/create"])
	assert.Equal(t, "PromptResponse", s.results["session/prompt"])
	assert.Equal(t, "SessionNotification", s.notes["session/update"])
	assert.Equal(t, "CancelNotification", s.notes["session/cancel"])
	assert.Equal(t, "CancelRequestNotification", s.notes["$/cancel_request"])
}

// Valid messages in askbridge's shapes, each with broken variants that must
// fail: the test above would pass them otherwise.
const (
	goodPermission  = `{"jsonrpc":"2.0","id":"askbridge-1","method":"session/request_permission","params":{"_meta":{"askUserQuestion":{"index":0,"total":1}},"options":[{"kind":"allow_once","name":"Postgres - relational","optionId":"Postgres"},{"kind":"allow_once","name":"Other (type custom answer)","optionId":"__other__"}],"sessionId":"s1","toolCall":{"content":[{"content":{"text":"Which database?","type":"text"},"type":"content"}],"kind":"think","title":"Database","toolCallId":"toolu_1"}}}`
	goodUpdate      = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","status":"in_progress","toolCallId":"toolu_1","content":[{"content":{"text":"Database: Postgres","type":"text"},"type":"content"}]}}}`
	goodInitialize  = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}},"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}}}`
	goodElicitation = `{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"question_0":["Go","Rust"]}}}`
	goodQwenAnswer  = `{"jsonrpc":"2.0","id":7,"result":{"answers":{"0":"SQLite"},"outcome":{"optionId":"proceed_once","outcome":"selected"}}}`
	goodError       = `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"agent exited"}}`
)

func TestSchemaRejectsBrokenMessages(t *testing.T) {
	s := acpSchemaForTest(t)
	elicitation := map[string]string{"7": "elicitation/create"}
	permission := map[string]string{"7": "session/request_permission"}
	cases := []struct {
		name     string
		line     string
		requests map[string]string
		break_   func(m map[string]any)
		want     string // in the error
	}{
		{"option kind not in the enum", goodPermission, nil, func(m map[string]any) {
			at(m, "params", "options", 0).(map[string]any)["kind"] = "allow_sometimes"
		}, "kind"},
		{"option without a name", goodPermission, nil, func(m map[string]any) {
			delete(at(m, "params", "options", 1).(map[string]any), "name")
		}, "name"},
		{"tool call without its id", goodPermission, nil, func(m map[string]any) {
			delete(at(m, "params", "toolCall").(map[string]any), "toolCallId")
		}, "toolCallId"},
		{"misspelt optional member", goodPermission, nil, func(m map[string]any) {
			tc := at(m, "params", "toolCall").(map[string]any)
			tc["titel"] = tc["title"]
			delete(tc, "title")
		}, "toolCall.titel"},
		{"update status not in the enum", goodUpdate, nil, func(m map[string]any) {
			at(m, "params", "update").(map[string]any)["status"] = "done"
		}, "SessionUpdate: oneOf"},
		{"update of an unknown kind", goodUpdate, nil, func(m map[string]any) {
			at(m, "params", "update").(map[string]any)["sessionUpdate"] = "tool_call_progress"
		}, "oneOf"},
		{"form capability as a boolean", goodInitialize, nil, func(m map[string]any) {
			at(m, "params", "clientCapabilities", "elicitation").(map[string]any)["form"] = true
		}, "form"},
		{"protocol version as a string", goodInitialize, nil, func(m map[string]any) {
			at(m, "params").(map[string]any)["protocolVersion"] = "1"
		}, "protocolVersion"},
		{"misspelt elicitation action", goodElicitation, elicitation, func(m map[string]any) {
			at(m, "result").(map[string]any)["action"] = "acept"
		}, "action"},
		{"elicitation content not a value", goodElicitation, elicitation, func(m map[string]any) {
			at(m, "result", "content").(map[string]any)["question_0"] = map[string]any{"label": "Go"}
		}, "ElicitationContentValue"},
		{"permission outcome of an unknown kind", goodQwenAnswer, permission, func(m map[string]any) {
			at(m, "result", "outcome").(map[string]any)["outcome"] = "answered"
		}, "outcome"},
		{"error code as a string", goodError, permission, func(m map[string]any) {
			at(m, "error").(map[string]any)["code"] = "internal"
		}, "code"},
		{"response to no request", goodError, permission, func(m map[string]any) { m["id"] = 8 }, "answers no request"},
		{"not JSON-RPC 2.0", goodUpdate, nil, func(m map[string]any) { m["jsonrpc"] = "1.0" }, "jsonrpc"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, s.check([]byte(tc.line), tc.requests).problem(), "the unbroken message must pass")
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.line), &m))
			tc.break_(m)
			broken, err := json.Marshal(m)
			require.NoError(t, err)
			err = s.check(broken, tc.requests).problem()
			require.Error(t, err, "%s passed", broken)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// at walks decoded JSON by keys and indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v = v.(map[string]any)[p]
		case int:
			v = v.([]any)[p]
		}
	}
	return v
}

func TestSchemaChecksOnlyWhatAskbridgeWrote(t *testing.T) {
	relayed := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
	f, err := Parse("x.txtar", []byte(strings.Join([]string{
		"-- client --",
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		"-- agent --",
		`{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{}}`,
		relayed,
		"-- want-client --",
		relayed,
		goodPermission,
		"-- want-agent --",
		goodInitialize,
		`{"jsonrpc":"2.0","id":5,"result":{"action":"cancel"}}`,
	}, "\n")))
	require.NoError(t, err)
	sides, err := authoredLines(f)
	require.NoError(t, err)
	require.Len(t, sides, 2)
	assert.Equal(t, "client", sides[0].side)
	assert.Equal(t, []string{goodPermission}, strs(sides[0].lines), "a relayed line is the agent's, not askbridge's")
	assert.Equal(t, map[string]string{"0": "initialize"}, sides[0].requests)
	assert.Len(t, sides[1].lines, 2, "the rewritten initialize is askbridge's")
	assert.Equal(t, map[string]string{"5": "elicitation/create"}, sides[1].requests)
	c := s(t).check(sides[1].lines[1], sides[1].requests)
	assert.Equal(t, "CreateElicitationResponse", c.def)
	assert.NoError(t, c.problem())
}

func s(t *testing.T) *acpSchema { return acpSchemaForTest(t) }
