//go:build live

package live

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kimi Code directly: what askbridge relies on. With forms Kimi asks every
// question in one elicitation/create (q0, q1... fields, a choice per
// question, an array for a multi-select, all required, no free-text field),
// keeps only values among the choices and reads anything else as dismissed;
// without forms it asks its first question only, as a permission request.

func TestKimiDirectForm(t *testing.T) {
	m := model(t, harness.Kimi.Tool, kimiTwoQuestions)
	var forms []json.RawMessage
	client := harness.Client{Elicit: func(params json.RawMessage) (any, error) {
		forms = append(forms, params)
		// A value outside the choices, as a client with Other would send.
		return json.RawMessage(`{"action":"accept","content":{"q0":"CockroachDB","q1":["Go"]}}`), nil
	}}
	r := harness.Start(t, harness.Kimi, harness.Options{ModelURL: m.URL, Client: client, Timeout: time.Minute})
	_, stop, err := r.Turn(harness.FormElicitation, "Ask me about the service.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	require.Len(t, forms, 1)
	var p struct {
		Mode            string `json:"mode"`
		RequestedSchema struct {
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		} `json:"requestedSchema"`
	}
	require.NoError(t, json.Unmarshal(forms[0], &p))
	assert.Equal(t, "form", p.Mode)
	assert.Equal(t, []string{"q0", "q1"}, p.RequestedSchema.Required)
	assert.Len(t, p.RequestedSchema.Properties, 2, "no free-text field")
	assert.Contains(t, p.RequestedSchema.Properties["q0"], "oneOf")
	assert.Equal(t, "array", p.RequestedSchema.Properties["q1"]["type"])
	// The typed value is dropped: only the multi-select's answer is left.
	require.Len(t, m.ToolResults(), 1)
	t.Logf("the model read: %s", m.ToolResults()[0])
	assert.NotContains(t, m.ToolResults()[0], "CockroachDB")
	assert.Contains(t, m.ToolResults()[0], `"Which languages should the service support?":"Go"`)
}

func TestKimiDirectWithoutForms(t *testing.T) {
	m := model(t, harness.Kimi.Tool, kimiTwoQuestions)
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("q0_opt_1") }}
	r := harness.Start(t, harness.Kimi, harness.Options{ModelURL: m.URL, Client: harness.Client{RequestPermission: p.handle}, Timeout: time.Minute})
	_, stop, err := r.Turn(harness.NoFeatures, "Ask me about the service.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	require.Len(t, p.got(), 1, "the first question only")
	var ids []string
	for _, o := range p.got()[0]["options"].([]any) {
		ids = append(ids, o.(map[string]any)["optionId"].(string))
	}
	assert.Equal(t, []string{"q0_opt_0", "q0_opt_1", "q0_skip"}, ids)
	require.Len(t, m.ToolResults(), 1)
	t.Logf("the model read: %s", m.ToolResults()[0])
	assert.Contains(t, m.ToolResults()[0], `"Which database should the service use?":"SQLite"`)
}

// kimiTwoQuestions is twoQuestions in Kimi's input: multi_select.
const kimiTwoQuestions = `{"questions":[{"question":"Which database should the service use?","header":"Database","multi_select":false,"options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}]},{"question":"Which languages should the service support?","header":"Languages","multi_select":true,"options":[{"label":"Go","description":"fast builds"},{"label":"Rust","description":"no GC"},{"label":"Python","description":"scripts"}]}]}`
