package acpschema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func acp(t *testing.T) *Schema {
	t.Helper()
	s, err := ACP()
	require.NoError(t, err)
	return s
}

func TestSchemaMethodTables(t *testing.T) {
	s := acp(t)
	assert.Equal(t, "InitializeRequest", s.ParamsDef("initialize"))
	assert.Equal(t, "RequestPermissionRequest", s.ParamsDef("session/request_permission"))
	assert.Equal(t, "RequestPermissionResponse", s.ResultDef("session/request_permission"))
	assert.Equal(t, "CreateElicitationResponse", s.ResultDef("elicitation/create"))
	assert.Equal(t, "PromptResponse", s.ResultDef("session/prompt"))
	assert.Equal(t, "SessionNotification", s.NotificationDef("session/update"))
	assert.Equal(t, "CancelNotification", s.NotificationDef("session/cancel"))
	assert.Equal(t, "CancelRequestNotification", s.NotificationDef("$/cancel_request"))
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
	s := acp(t)
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
		{"notification sent as a request", goodUpdate, nil, func(m map[string]any) { m["id"] = 9 }, "sent as a request"},
		{"request sent as a notification", goodPermission, nil, func(m map[string]any) { delete(m, "id") }, "sent as a notification"},
		{"not JSON-RPC 2.0", goodUpdate, nil, func(m map[string]any) { m["jsonrpc"] = "1.0" }, "jsonrpc"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, s.Check([]byte(tc.line), tc.requests).Problem(), "the unbroken message must pass")
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.line), &m))
			tc.break_(m)
			broken, err := json.Marshal(m)
			require.NoError(t, err)
			err = s.Check(broken, tc.requests).Problem()
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
