package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const codexAsk = `{"questions":[{"id":"db","header":"Database","question":"Which?","options":[{"label":"Postgres","description":"a"},{"label":"SQLite","description":"b"}]}]}`

// event is one server-sent event of a Responses stream.
type event struct {
	Name string
	Data map[string]any
}

// events parses a stream and checks what every event must hold: the
// event: line and data.type agree, and sequence_number counts from 0.
func events(t *testing.T, stream string) []event {
	t.Helper()
	var out []event
	for _, block := range strings.Split(strings.TrimSpace(stream), "\n\n") {
		name, data, ok := strings.Cut(block, "\n")
		require.True(t, ok, "an event is two lines: %q", block)
		name, ok = strings.CutPrefix(name, "event: ")
		require.True(t, ok, "no event: line in %q", block)
		data, ok = strings.CutPrefix(data, "data: ")
		require.True(t, ok, "no data: line in %q", block)
		var ev event
		ev.Name = name
		require.NoError(t, json.Unmarshal([]byte(data), &ev.Data))
		assert.Equal(t, name, ev.Data["type"])
		assert.EqualValues(t, len(out), ev.Data["sequence_number"])
		out = append(out, ev)
	}
	return out
}

func names(evs []event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Name)
	}
	return out
}

func TestResponsesStreamsAFunctionCall(t *testing.T) {
	m := start(t, Script{Tool: "request_user_input", Calls: []json.RawMessage{[]byte(codexAsk)}})
	tools := `"tools":[{"type":"function","name":"shell"},{"type":"function","name":"request_user_input"}]`
	evs := events(t, post(t, m.URL+"/v1/responses", `{"model":"gpt-5.5","stream":true,`+tools+`,
		"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}]}`))
	assert.Equal(t, []string{"response.created", "response.in_progress", "response.output_item.added",
		"response.function_call_arguments.delta", "response.function_call_arguments.delta",
		"response.function_call_arguments.done", "response.output_item.done", "response.completed"}, names(evs))
	assert.JSONEq(t, codexAsk, partialJSON(t, post(t, m.URL+"/v1/responses", `{"stream":true,`+tools+`}`), "delta"),
		"the deltas join into the call's arguments")

	item := evs[6].Data["item"].(map[string]any)
	assert.Equal(t, "function_call", item["type"])
	assert.Equal(t, "call_askbridge_0", item["call_id"])
	assert.Equal(t, "request_user_input", item["name"])
	assert.Equal(t, "completed", item["status"])
	assert.JSONEq(t, codexAsk, item["arguments"].(string))
	assert.Equal(t, item["id"], evs[3].Data["item_id"], "the deltas name the item")

	done := evs[7].Data["response"].(map[string]any)
	assert.Equal(t, "completed", done["status"])
	assert.Equal(t, "gpt-5.5", done["model"])
	assert.Equal(t, []any{item}, done["output"])
	assert.EqualValues(t, 15, done["usage"].(map[string]any)["total_tokens"])
	assert.True(t, m.Offered())
}

func TestResponsesReadsFunctionCallOutputs(t *testing.T) {
	m := start(t, Script{Tool: "request_user_input", Calls: []json.RawMessage{[]byte(codexAsk), []byte(codexAsk)}})
	tools := `"tools":[{"type":"function","name":"request_user_input"}]`
	call := func(n string) string {
		return `{"type":"function_call","call_id":"call_askbridge_` + n + `","name":"request_user_input","arguments":"{}"}`
	}
	second := events(t, post(t, m.URL+"/v1/responses", `{"stream":true,`+tools+`,"input":[`+call("0")+`,
		{"type":"function_call_output","call_id":"call_askbridge_0","output":"{\"answers\":{\"db\":{\"answers\":[\"Postgres\"]}}}"}]}`))
	assert.Equal(t, "call_askbridge_1", second[6].Data["item"].(map[string]any)["call_id"], "the next call of the script")

	// Codex may send an output as content items.
	last := events(t, post(t, m.URL+"/v1/responses", `{"stream":true,`+tools+`,"input":[`+call("0")+`,
		{"type":"function_call_output","call_id":"call_askbridge_0","output":"{\"answers\":{\"db\":{\"answers\":[\"Postgres\"]}}}"},`+call("1")+`,
		{"type":"function_call_output","call_id":"call_askbridge_1","output":[{"type":"input_text","text":"{\"answers\":{}}"}]}]}`))
	assert.Equal(t, []string{"response.created", "response.in_progress", "response.output_item.added",
		"response.content_part.added", "response.output_text.delta", "response.output_text.done",
		"response.content_part.done", "response.output_item.done", "response.completed"}, names(last))
	text := `Thanks. The tool said: "{\"answers\":{\"db\":{\"answers\":[\"Postgres\"]}}}" | "{\"answers\":{}}"`
	assert.Equal(t, text, last[4].Data["delta"])
	assert.Equal(t, text, last[5].Data["text"])
	msg := last[7].Data["item"].(map[string]any)
	assert.Equal(t, "assistant", msg["role"])
	assert.Equal(t, text, msg["content"].([]any)[0].(map[string]any)["text"])
	assert.Equal(t, []ToolResult{
		{ID: "call_askbridge_0", Call: 0, Text: `{"answers":{"db":{"answers":["Postgres"]}}}`},
		{ID: "call_askbridge_1", Call: 1, Text: `{"answers":{}}`},
	}, m.Results())
}

func TestResponsesSideRequestGetsText(t *testing.T) {
	m := start(t, Script{Tool: "request_user_input", Calls: []json.RawMessage{[]byte(codexAsk)}})
	// Codex's title request offers no tools.
	evs := events(t, post(t, m.URL+"/v1/responses", `{"stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"title this"}]}]}`))
	assert.Equal(t, "OK.", evs[4].Data["delta"])
	assert.False(t, m.Offered())
	assert.Empty(t, m.Results())

	out := post(t, m.URL+"/v1/responses", `{"stream":false,"tools":[{"type":"function","name":"request_user_input"}]}`)
	var resp map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &resp))
	assert.Equal(t, "completed", resp["status"])
	assert.Equal(t, "call_askbridge_0", resp["output"].([]any)[0].(map[string]any)["call_id"], "unstreamed, the same call")
}

func TestResponsesRejectsABadBody(t *testing.T) {
	m := start(t, Script{})
	resp, err := http.Post(m.URL+"/v1/responses", "application/json", strings.NewReader(`{"input":"not a list"}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Len(t, m.Requests(), 1, "a bad request is recorded too")
}
