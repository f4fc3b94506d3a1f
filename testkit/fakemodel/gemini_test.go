package fakemodel

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const geminiTools = `"tools":[{"functionDeclarations":[{"name":"read_file"},{"name":"mcp_askbridge_ask_user_question"}]}]`

// geminiChunks decodes the data lines of an SSE stream.
func geminiChunks(t *testing.T, stream string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(stream, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var c map[string]any
			require.NoError(t, json.Unmarshal([]byte(data), &c), data)
			out = append(out, c)
		}
	}
	return out
}

// parts returns the parts of a response's (or chunk's) first candidate.
func parts(t *testing.T, c map[string]any) []any {
	t.Helper()
	cand := c["candidates"].([]any)[0].(map[string]any)
	return cand["content"].(map[string]any)["parts"].([]any)
}

func TestGeminiCallsTheMCPToolThenQuotesItsResults(t *testing.T) {
	m := start(t, Script{Tool: "ask_user_question", Calls: []json.RawMessage{[]byte(ask), []byte(ask)}})
	url := m.URL + "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"

	first := geminiChunks(t, post(t, url, `{`+geminiTools+`,"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`))
	require.Len(t, first, 1)
	call := parts(t, first[0])[0].(map[string]any)["functionCall"].(map[string]any)
	assert.Equal(t, "mcp_askbridge_ask_user_question", call["name"], "the name as offered, server prefix included")
	assert.Equal(t, "gemini_askbridge_0", call["id"])
	args, _ := json.Marshal(call["args"])
	assert.JSONEq(t, ask, string(args))
	assert.Equal(t, "STOP", first[0]["candidates"].([]any)[0].(map[string]any)["finishReason"])

	history := `{"role":"user","parts":[{"text":"hi"}]},
		{"role":"model","parts":[{"functionCall":{"id":"gemini_askbridge_0","name":"mcp_askbridge_ask_user_question","args":{}}}]},
		{"role":"user","parts":[{"functionResponse":{"id":"gemini_askbridge_0","name":"mcp_askbridge_ask_user_question","response":{"output":"one"}}}]}`
	second := geminiChunks(t, post(t, url, `{`+geminiTools+`,"contents":[`+history+`]}`))
	assert.Equal(t, "gemini_askbridge_1", parts(t, second[0])[0].(map[string]any)["functionCall"].(map[string]any)["id"])

	last := post(t, url, `{`+geminiTools+`,"contents":[`+history+`,
		{"role":"model","parts":[{"functionCall":{"id":"gemini_askbridge_1","name":"mcp_askbridge_ask_user_question","args":{}}}]},
		{"role":"user","parts":[{"functionResponse":{"id":"gemini_askbridge_1","name":"mcp_askbridge_ask_user_question","response":{"error":"Tool was canceled by the user."}}}]}]}`)
	chunks := geminiChunks(t, last)
	require.Len(t, chunks, 2, "text streams in two chunks")
	assert.NotContains(t, chunks[0]["candidates"].([]any)[0], "finishReason", "only the last chunk finishes")
	assert.Equal(t, `Thanks. The tool said: "one" | "Tool was canceled by the user."`, partialJSON(t, last, "text"))
	assert.Equal(t, []ToolResult{
		{ID: "gemini_askbridge_0", Call: 0, Text: "one"},
		{ID: "gemini_askbridge_1", Call: 1, Text: "Tool was canceled by the user.", IsError: true},
	}, m.Results())
	assert.True(t, m.Offered())
}

func TestGeminiWithoutTheToolGetsText(t *testing.T) {
	m := start(t, Script{Tool: "ask_user_question", Calls: []json.RawMessage{[]byte(ask)}})
	out := post(t, m.URL+"/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
		`{"tools":[{"functionDeclarations":[{"name":"read_file"},{"name":"ask_user_question_later"}]}],"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`)
	assert.NotContains(t, out, "functionCall")
	assert.Equal(t, "OK.", partialJSON(t, out, "text"))
	assert.False(t, m.Offered())
}

// A functionResponse that lost its id still counts, as the next call.
func TestGeminiResultWithoutAnID(t *testing.T) {
	m := start(t, Script{Tool: "ask_user_question", Calls: []json.RawMessage{[]byte(ask)}})
	out := post(t, m.URL+"/v1beta/models/m:streamGenerateContent?alt=sse", `{`+geminiTools+`,"contents":[
		{"role":"user","parts":[{"functionResponse":{"name":"mcp_askbridge_ask_user_question","response":{"output":"<untrusted_context>\nRedis\n</untrusted_context>"}}}]}]}`)
	assert.NotContains(t, out, "functionCall", "the script's one call is answered")
	assert.Equal(t, []string{"<untrusted_context>\nRedis\n</untrusted_context>"}, m.ToolResults())
}

// The one-shot calls want JSON: of the schema they send, else the router's.
func TestGeminiGenerateContentAnswersTheSchema(t *testing.T) {
	m := start(t, Script{Tool: "ask_user_question", Calls: []json.RawMessage{[]byte(ask)}})
	url := m.URL + "/v1beta/models/gemini-2.5-flash-lite:generateContent"
	text := func(body string) string {
		var resp map[string]any
		require.NoError(t, json.Unmarshal([]byte(post(t, url, body)), &resp))
		return parts(t, resp)[0].(map[string]any)["text"].(string)
	}
	contents := `"contents":[{"role":"user","parts":[{"text":"hi"}]}]`

	assert.JSONEq(t, routing, text(`{`+contents+`}`))
	assert.JSONEq(t, `{"complexity_reasoning":"The fake model's answer.","complexity_score":10}`, text(`{`+contents+`,"generationConfig":{"responseMimeType":"application/json",
		"responseJsonSchema":{"type":"OBJECT","properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER"}}}}}`))
	assert.JSONEq(t, `{"reasoning":"The fake model's answer.","model_choice":"flash","tags":[false]}`, text(`{`+contents+`,"generationConfig":{
		"responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"model_choice":{"type":"string","enum":["flash","pro"]},
		"tags":{"type":"array","items":{"type":"boolean"}}}}}}`))
	assert.JSONEq(t, `"user"`, text(`{`+contents+`,"generationConfig":{"responseJsonSchema":{"type":"string","enum":["user","model"]}}}`))
	assert.False(t, m.Offered(), "no tools in these requests")
	assert.Len(t, m.Requests(), 4)
}

func TestGeminiErrors(t *testing.T) {
	m := start(t, Script{})
	for _, c := range []struct{ path, body, want string }{
		{"/v1beta/models/m:embedContent", `{}`, `no Gemini method "embedContent" on model "m"`},
		{"/v1beta/models/m", `{}`, `no Gemini method "" on model "m"`},
		{"/v1beta/models/m:generateContent", `[`, "the body is not a generateContent request"},
	} {
		resp, err := http.Post(m.URL+c.path, "application/json", strings.NewReader(c.body))
		require.NoError(t, err)
		var body struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
		resp.Body.Close()
		assert.NotEqual(t, 200, resp.StatusCode, c.path)
		assert.Equal(t, resp.StatusCode, body.Error.Code)
		assert.Contains(t, body.Error.Message, c.want, c.path)
	}
	assert.JSONEq(t, `{"totalTokens":42}`, post(t, m.URL+"/v1beta/models/m:countTokens", `{"contents":[]}`))
	assert.Len(t, m.Requests(), 4, "failed requests are recorded too")
}
