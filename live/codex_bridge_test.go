//go:build live

package live

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Through askbridge, a client that renders only permission requests answers
// the real Codex's request_user_input: one request per question, Codex's
// note as Other's typed text, and the model reads what it would have read
// had the client filled Codex's form.

// codexTurn runs one prompt through askbridge with a client without
// elicitation, answering permission requests with p. It returns the run
// (for its wire) and what the model read.
func codexTurn(t *testing.T, p *permissionLog, call string) (*harness.Run, []string) {
	t.Helper()
	m := model(t, harness.Codex.Tool, call)
	r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Wrap: codexBridged(t), Client: harness.Client{RequestPermission: p.handle}})
	_, stop, err := r.Turn(harness.NoFeatures, "Ask me about the service.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop, "Codex's turn goes on whatever the answer")
	return r, m.ToolResults()
}

// codexBridged wraps Codex in askbridge; with $ASKBRIDGE_LIVE_FIXTURES set,
// askbridge also records the run (--record) there, the raw material of
// conformance/testdata/codex-*.txtar (askbridge record-fixture).
func codexBridged(t *testing.T) []string {
	wrap := bridged.wrap(t)
	if dir := os.Getenv("ASKBRIDGE_LIVE_FIXTURES"); dir != "" {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		name := strings.NewReplacer("/", "_", " ", "_").Replace(t.Name())
		wrap = append(wrap[:len(wrap)-1], "--record="+filepath.Join(dir, name+".jsonl"), "--")
	}
	return wrap
}

func other(text string) string {
	return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":` + mustJSON(text) + `}}}`
}

func optionIDs(params map[string]any) []string {
	var out []string
	opts, _ := params["options"].([]any)
	for _, o := range opts {
		id, _ := o.(map[string]any)["optionId"].(string)
		out = append(out, id)
	}
	return out
}

func TestCodexBridgedSingle(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return pick("Redis") }}
	r, results := codexTurn(t, p, codexDB)
	require.Len(t, p.got(), 1)
	req := p.got()[0]
	assert.Equal(t, []string{"Postgres", "Redis", "__other__"}, optionIDs(req), "Codex's own None of the above is not offered beside Other")
	assert.Equal(t, []string{"Database"}, p.titles())
	id := req["toolCall"].(map[string]any)["toolCallId"]
	assert.Equal(t, "call_askbridge_0", id, "the question keeps Codex's tool call id")
	announced := toolCallsNamed(r.Lines(), "call_askbridge_0")
	require.NotEmpty(t, announced, "askbridge announces the tool call codex-acp never sent")
	assert.Contains(t, string(announced[0]), `"sessionUpdate":"tool_call"`, "the first update about it creates it")
	require.Len(t, results, 1)
	assert.JSONEq(t, `{"answers":{"db":{"answers":["Redis"]}}}`, results[0])
}

func TestCodexBridgedOtherWithTypedText(t *testing.T) {
	p := &permissionLog{answer: func(int, map[string]any) string { return other("CockroachDB") }}
	_, results := codexTurn(t, p, codexDB)
	require.Len(t, results, 1)
	assert.JSONEq(t, `{"answers":{"db":{"answers":["None of the above","user_note: CockroachDB"]}}}`, results[0],
		"Codex's own encoding of an answer outside the options")
}

func TestCodexBridgedTwoQuestions(t *testing.T) {
	p := &permissionLog{answer: func(n int, _ map[string]any) string {
		if n == 1 {
			return pick("Postgres")
		}
		return other("Zig")
	}}
	_, results := codexTurn(t, p, codexTwo)
	assert.Equal(t, []string{"Database (1/2)", "Language (2/2)"}, p.titles())
	require.Len(t, results, 1)
	assert.JSONEq(t, `{"answers":{"db":{"answers":["Postgres"]},"lang":{"answers":["None of the above","user_note: Zig"]}}}`, results[0])
}

func TestCodexBridgedCancel(t *testing.T) {
	p := &permissionLog{} // every request: cancelled
	_, results := codexTurn(t, p, codexTwo)
	assert.Len(t, p.got(), 1, "no question after a cancel")
	require.Len(t, results, 1)
	assert.JSONEq(t, codexNothing, results[0], "the model hears nobody answered")
}

// A secret typed as Other reaches the model and nothing the client is sent.
func TestCodexBridgedSecretNotEchoed(t *testing.T) {
	const secret = "s3cr3t-t0ken"
	p := &permissionLog{answer: func(int, map[string]any) string { return other(secret) }}
	r, results := codexTurn(t, p, codexSecret)
	require.Len(t, results, 1)
	assert.JSONEq(t, `{"answers":{"token":{"answers":["None of the above","user_note: `+secret+`"]}}}`, results[0])
	for _, l := range r.Lines() {
		// The fake model's own reply quotes its tool result: that is the
		// model talking, not askbridge.
		if l.Dir == harness.FromAgent && !strings.Contains(string(l.Msg), `"agent_message_chunk"`) {
			assert.NotContains(t, string(l.Msg), secret, "askbridge echoed the secret to the client")
		}
	}
}

// session/cancel while a question is open: the prompt ends cancelled, and
// the permission request codex-acp's withdrawn form stood for is withdrawn
// at the client.
func TestCodexBridgedSessionCancel(t *testing.T) {
	m := model(t, harness.Codex.Tool, codexDB)
	asked := make(chan struct{}, 1)
	release := make(chan struct{})
	withdrawn := make(chan json.RawMessage, 1)
	client := harness.Client{
		RequestPermission: func(json.RawMessage) (any, error) {
			asked <- struct{}{}
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			}
			return json.RawMessage(`{"outcome":{"outcome":"cancelled"}}`), nil
		},
		Notify: func(method string, p json.RawMessage) {
			if method != "$/cancel_request" {
				return
			}
			// Never block the client's reading.
			select {
			case withdrawn <- p:
			default:
			}
		},
	}
	r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Wrap: codexBridged(t), Client: client})
	defer close(release)
	_, err := r.Initialize(harness.NoFeatures)
	require.NoError(t, err)
	sess, err := r.NewSession()
	require.NoError(t, err)
	done := make(chan string, 1)
	go func() {
		stop, err := r.Prompt(sess, "Ask me.")
		assert.NoError(t, err)
		done <- stop
	}()
	select {
	case <-asked:
	case <-r.Ctx.Done():
		t.Fatal("never asked")
	}
	require.NoError(t, r.Cancel(sess))
	select {
	case stop := <-done:
		assert.Equal(t, "cancelled", stop)
	case <-time.After(8 * time.Second):
		t.Fatal("the prompt did not end within 8s of session/cancel")
	}
	select {
	case p := <-withdrawn:
		t.Logf("$/cancel_request to the client: %s", p)
		var c struct {
			RequestID string `json:"requestId"`
		}
		require.NoError(t, json.Unmarshal(p, &c))
		assert.Regexp(t, `^askbridge-[0-9a-f]{16}-[0-9]+$`, c.RequestID, "the withdrawal is askbridge's, of its permission request")
	case <-time.After(2 * time.Second):
		t.Error("the open permission request was not withdrawn")
	}
	assert.Empty(t, m.Results(), "the model is not called again")
}

// A client that renders forms gets Codex's form untouched: the same answer
// gives the same tool result directly and through askbridge.
func TestCodexFormClientSameDirectAndBridged(t *testing.T) {
	for _, md := range modes {
		t.Run(md.name, func(t *testing.T) {
			m := model(t, harness.Codex.Tool, codexDB)
			el := &elicitations{answers: []string{`{"action":"accept","content":{"db":"None of the above","db_note":"CockroachDB"}}`}}
			p := &permissionLog{}
			wrap := md.wrap(t)
			if md.name == bridged.name {
				wrap = codexBridged(t)
			}
			r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Wrap: wrap,
				Client: harness.Client{Elicit: el.answer, RequestPermission: p.handle}})
			_, stop, err := r.Turn(harness.FormElicitation, "Ask me about the service.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)
			assert.Empty(t, p.got(), "no permission request when the client renders forms")
			require.Len(t, el.got(), 1)
			var got struct {
				RequestedSchema json.RawMessage `json:"requestedSchema"`
			}
			require.NoError(t, json.Unmarshal(el.got()[0], &got))
			assert.JSONEq(t, codexDBForm, string(got.RequestedSchema))
			require.Len(t, m.ToolResults(), 1)
			assert.JSONEq(t, `{"answers":{"db":{"answers":["None of the above","user_note: CockroachDB"]}}}`, m.ToolResults()[0])
		})
	}
}

// acpx (no elicitation) with --approve-all picks the first option of each
// permission request. Directly, Codex asks it nothing and the model gets no
// answers; through askbridge the model gets the first option.
func TestCodexAcpxApproveAll(t *testing.T) {
	for _, c := range []struct {
		mode   mode
		result string
	}{
		{direct, codexNothing},
		{bridged, `{"answers":{"db":{"answers":["Postgres"]},"lang":{"answers":["Go"]}}}`},
	} {
		t.Run(c.mode.name, func(t *testing.T) {
			m := model(t, harness.Codex.Tool, codexTwo)
			agent := strings.Join(append(c.mode.wrap(t), harness.Codex.Argv(harness.LiveDir())...), " ")
			out := harness.Exec(t, harness.Codex, m.URL, []string{filepath.Join(harness.LiveDir(), "node_modules/.bin/acpx"),
				"--agent", agent, "--approve-all", "--format", "json", "--timeout", "90", "exec", "Ask me about the service."}, 0)
			require.NoError(t, out.Err, "acpx failed:\n%s", tail(out.Stderr, 4000))
			assert.Contains(t, out.Stdout, `"stopReason":"end_turn"`)
			require.Len(t, m.ToolResults(), 1, "acpx stdout:\n%s", tail(out.Stdout, 4000))
			assert.JSONEq(t, c.result, m.ToolResults()[0])
		})
	}
}
