package fakemodel

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ask = `{"questions":[{"question":"Which?","header":"H","multiSelect":false,"options":[{"label":"A","description":"a"},{"label":"B","description":"b"}]}]}`

func start(t *testing.T, s Script) *Server {
	t.Helper()
	m, err := Start(s, nil)
	require.NoError(t, err)
	t.Cleanup(m.Close)
	return m
}

func post(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	var sb strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		sb.WriteString(sc.Text() + "\n")
	}
	return sb.String()
}

// partialJSON joins the input_json_delta / arguments fragments of a stream.
func partialJSON(t *testing.T, stream, key string) string {
	var out strings.Builder
	for _, line := range strings.Split(stream, "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(data), &ev), data)
		collect(ev, key, &out)
	}
	return out.String()
}

func collect(v any, key string, out *strings.Builder) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == key {
				out.WriteString(s)
				continue
			}
			collect(x, key, out)
		}
	case []any:
		for _, x := range v {
			collect(x, key, out)
		}
	}
}

func TestAnthropicCallsThenQuotesEachResult(t *testing.T) {
	m := start(t, Script{Tool: "AskUserQuestion", Calls: []json.RawMessage{[]byte(ask), []byte(ask)}})
	url := m.URL + "/v1/messages?beta=true"
	tools := `"tools":[{"name":"Bash"},{"name":"AskUserQuestion"}]`

	first := post(t, url, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"hi"}]}`)
	assert.Contains(t, first, `"id":"toolu_askbridge_0"`)
	assert.Contains(t, first, "event: message_stop")
	assert.JSONEq(t, ask, partialJSON(t, first, "partial_json"))

	second := post(t, url, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":"hi"},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_askbridge_0","content":[{"type":"text","text":"one"}]}]}]}`)
	assert.Contains(t, second, `"id":"toolu_askbridge_1"`, "the second call of the script")

	last := post(t, url, `{"stream":true,`+tools+`,"messages":[{"role":"user","content":[
		{"type":"tool_result","tool_use_id":"toolu_askbridge_0","content":"one"},
		{"type":"tool_result","tool_use_id":"toolu_askbridge_1","content":"two","is_error":true}]}]}`)
	assert.Contains(t, partialJSON(t, last, "text"), `Thanks. The tool said: "one" | "two"`)
	assert.Equal(t, []ToolResult{{ID: "toolu_askbridge_0", Call: 0, Text: "one"}, {ID: "toolu_askbridge_1", Call: 1, Text: "two", IsError: true}}, m.Results())
	assert.Len(t, m.Requests(), 3)
	assert.True(t, m.Offered())
}

func TestAnthropicSideRequestGetsText(t *testing.T) {
	m := start(t, Script{Tool: "AskUserQuestion", Calls: []json.RawMessage{[]byte(ask)}})
	out := post(t, m.URL+"/v1/messages", `{"stream":false,"messages":[{"role":"user","content":"title this"}]}`)
	assert.Contains(t, out, `"text":"OK."`)
	assert.False(t, m.Offered())
	assert.JSONEq(t, `{"stream":false,"messages":[{"role":"user","content":"title this"}]}`, string(m.Requests()[0].Body))
}

func TestOpenAIStreamsToolCallThenText(t *testing.T) {
	m := start(t, Script{Tool: "question", Calls: []json.RawMessage{[]byte(ask)}})
	url := m.URL + "/v1/chat/completions"
	tools := `"tools":[{"type":"function","function":{"name":"question"}}]`
	first := post(t, url, `{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":"hi"}]}`)
	assert.Contains(t, first, `"id":"call_askbridge_0"`)
	assert.Contains(t, first, `"finish_reason":"tool_calls"`)
	assert.True(t, strings.HasSuffix(strings.TrimSpace(first), "data: [DONE]"))
	assert.JSONEq(t, ask, partialJSON(t, first, "arguments"))

	last := post(t, url, `{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":"hi"},
		{"role":"assistant","tool_calls":[{"id":"call_askbridge_0","type":"function","function":{"name":"question","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"call_askbridge_0","content":"**H**: A"}]}`)
	assert.Contains(t, partialJSON(t, last, "content"), `"**H**: A"`)
	assert.Equal(t, []string{"**H**: A"}, m.ToolResults())
}

func TestStartRejectsABadScript(t *testing.T) {
	_, err := Start(Script{Tool: "q", Calls: []json.RawMessage{[]byte(`[1]`)}}, nil)
	assert.ErrorContains(t, err, "Calls[0] is not a JSON object")
	_, err = Start(Script{Calls: []json.RawMessage{[]byte(`{}`)}}, nil)
	assert.ErrorContains(t, err, "without Script.Tool")
}
