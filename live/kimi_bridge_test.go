//go:build live

package live

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/testkit/fakemodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Kimi Code through askbridge: askbridge advertises forms to Kimi for a
// client without them, Kimi asks every question in one form, and askbridge
// asks each field as a permission request — without "Other", which Kimi's
// form cannot carry.

var kimiCases = map[string]fixtureCase{
	"TestKimiBridgedSingleQuestion":  {"kimi-single", "askbridge advertises form elicitation to Kimi for a client without it; Kimi's form (q0, a choice, required, no free-text field) is one permission request with no Other, and the pick goes back as the form's value."},
	"TestKimiBridgedTwoQuestions":    {"kimi-two-questions", "Kimi's two-question form, the second a multi-select, is two permission requests; both answers go back, the multi-select as an array, and the model reads both (Kimi's own fallback asks only the first)."},
	"TestKimiBridgedOtherIsRefused":  {"kimi-other-refused", "a client that sends Other with typed text anyway for a field that cannot take it: askbridge refuses it and cancels the form, never a decline passed off as the user's answer."},
	"TestKimiBridgedCancel":          {"kimi-cancel", "a dismissed question cancels the form; the second question is never shown."},
	"TestKimiBridgedFormPassthrough": {"kimi-form-passthrough", "a client that renders forms gets Kimi's form untouched and its answer goes back as it came."},
}

const kimiHeader = "Agent: @moonshot-ai/kimi-code 2.1.0 (`kimi acp`, on node 22.23.3), recorded through askbridge with a fake model on 127.0.0.1.\n"

// kimiSingle is dbQuestion in Kimi's input.
const kimiSingle = `{"questions":[{"question":"Which database should the service use?","header":"Database","multi_select":false,"options":[{"label":"Postgres","description":"relational, the default"},{"label":"SQLite","description":"embedded file"}]}]}`

// kimiBridged runs one turn of Kimi through askbridge with client caps and
// returns the fake model and the run; atExit, if set, gets askbridge's
// --record file once askbridge has exited.
func kimiBridged(t *testing.T, caps string, client harness.Client, call string, atExit func(record string)) (*fakemodel.Server, *harness.Run) {
	t.Helper()
	m := model(t, harness.Kimi.Tool, call)
	header := kimiHeader + "Client: no elicitation capability (fs and terminal off).\n"
	if caps == harness.FormElicitation {
		header = kimiHeader + "Client: renders forms (elicitation.form), fs and terminal off.\n"
	}
	record := recordFixture(t, kimiCases, header, nil)
	if atExit != nil {
		t.Cleanup(func() { atExit(record[len("--record="):]) }) // before the run's own: after it
	}
	r := harness.Start(t, harness.Kimi, harness.Options{ModelURL: m.URL, Client: client, Timeout: time.Minute,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--min-answer-time=0", record)})
	_, stop, err := r.Turn(caps, "Ask me about the service.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	require.True(t, m.Offered(), "Kimi offered no %s; stderr:\n%s", harness.Kimi.Tool, r.Stderr())
	return m, r
}

// noOther checks that no permission request offered Other.
func noOther(t *testing.T, p *permissionLog) {
	t.Helper()
	for _, params := range p.got() {
		for _, o := range params["options"].([]any) {
			assert.NotEqual(t, "__other__", o.(map[string]any)["optionId"], "Other offered for a field that cannot take text")
		}
	}
}

func TestKimiBridgedSingleQuestion(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("SQLite") }}
	m, _ := kimiBridged(t, harness.NoFeatures, harness.Client{RequestPermission: p.handle}, kimiSingle, nil)
	assert.Equal(t, []string{"Database"}, p.titles())
	noOther(t, p)
	assert.Equal(t, []string{`{"answers":{"Which database should the service use?":"SQLite"}}`}, m.ToolResults())
}

func TestKimiBridgedTwoQuestions(t *testing.T) {
	p := &permissionLog{answer: func(n int, _ map[string]any) string {
		if n == 1 {
			return pick("Postgres")
		}
		return `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Python"]}}}`
	}}
	m, _ := kimiBridged(t, harness.NoFeatures, harness.Client{RequestPermission: p.handle}, kimiTwoQuestions, nil)
	assert.Len(t, p.got(), 2)
	noOther(t, p)
	assert.Equal(t, []string{`{"answers":{"Which database should the service use?":"Postgres","Which languages should the service support?":"Go, Python"}}`}, m.ToolResults())
}

// Kimi cannot take typed text: a client that sends Other anyway (one that
// adds its own Other button) gets the form cancelled, which Kimi reads as
// dismissed; nothing the user typed is passed off as no answer.
func TestKimiBridgedOtherIsRefused(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string {
		return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`
	}}
	m, r := kimiBridged(t, harness.NoFeatures, harness.Client{RequestPermission: p.handle}, kimiSingle, nil)
	noOther(t, p)
	assert.Contains(t, r.Stderr(), "takes no typed answer")
	require.Len(t, m.ToolResults(), 1)
	t.Logf("the model read: %s", m.ToolResults()[0])
	assert.Contains(t, m.ToolResults()[0], "User dismissed the question without answering.")
}

func TestKimiBridgedCancel(t *testing.T) {
	p := &permissionLog{} // dismisses
	m, _ := kimiBridged(t, harness.NoFeatures, harness.Client{RequestPermission: p.handle}, kimiTwoQuestions, nil)
	assert.Len(t, p.got(), 1, "no question after a cancel")
	require.Len(t, m.ToolResults(), 1)
	assert.Contains(t, m.ToolResults()[0], "User dismissed the question without answering.")
}

// A client that renders forms gets Kimi's form as Kimi sent it.
func TestKimiBridgedFormPassthrough(t *testing.T) {
	var got json.RawMessage
	client := harness.Client{Elicit: func(params json.RawMessage) (any, error) {
		got = params
		return json.RawMessage(`{"action":"accept","content":{"q0":"SQLite","q1":["Rust"]}}`), nil
	}}
	m, _ := kimiBridged(t, harness.FormElicitation, client, kimiTwoQuestions, func(record string) {
		assert.JSONEq(t, string(kimiElicitation(t, record)), string(got), "the form reached the client changed")
	})
	require.NotNil(t, got)
	assert.Equal(t, []string{`{"answers":{"Which database should the service use?":"SQLite","Which languages should the service support?":"Rust"}}`}, m.ToolResults())
}

// kimiElicitation is the params of the elicitation/create Kimi sent, as
// askbridge recorded it.
func kimiElicitation(t *testing.T, record string) json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(record)
	require.NoError(t, err)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var e struct {
			Dir string `json:"dir"`
			Msg struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"msg"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Msg.Method == "elicitation/create" {
			return e.Msg.Params
		}
	}
	t.Fatal("no elicitation/create in askbridge's recording")
	return nil
}
