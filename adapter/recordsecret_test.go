package adapter

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// recordedWithin waits until the recording holds want, and returns it.
func recordedWithin(t *testing.T, h *relaytest.Harness, want string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		h.Relay.Flush()
		got := h.Rec.String()
		if strings.Contains(got, want) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recording never held %s:\n%s", want, got)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A secret typed in the editor reaches the agent; the recording has the
// placeholder where the client sent it, where askbridge replied with it,
// and where the agent repeated it.
func TestRecordingHidesASecretTypedInTheEditor(t *testing.T) {
	h, req, _ := codexAsk(t, codexPass)
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"  s3cr3t-t0ken "}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"token":"None of the above","token_note":"s3cr3t-t0ken"}}`, string(h.AgentReply(t, "0").Result))
	h.Agent.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"You said s3cr3t-t0ken."}}}}`)
	h.Client.Recv()
	got := recordedWithin(t, h.Harness, "You said ")
	assert.NotContains(t, got, "s3cr3t")
	assert.Contains(t, got, `"_meta":{"customText":"(secret)"}`, "the client's line")
	assert.Contains(t, got, `"token_note":"(secret)"`, "askbridge's reply to the agent")
	assert.Contains(t, got, `You said (secret).`, "the agent's echo")
}

// A secret typed at the desk never reaches the recording either: not in
// the desk's line, not in the reply to the agent.
func TestRecordingHidesASecretTypedAtTheDesk(t *testing.T) {
	board := permission.NewBoard()
	h := newBridgeHarness(t, Options{Advertise: true, Board: board})
	h.OpenSession(t, "s1")
	h.Agent.Send(codexPass)
	h.NextRequest(t, "session/request_permission")
	sets := board.List()
	require.Len(t, sets, 1)
	done, err := board.ProgressBy(sets[0].ID, 0, []permission.Answer{{Other: true, Custom: "d3sk-s3cr3t"}}, permissiontest.InProcess(""))
	require.NoError(t, err)
	require.True(t, done)
	assert.Contains(t, string(h.AgentReply(t, "0").Result), `"token_note":"d3sk-s3cr3t"`)
	got := recordedWithin(t, h.Harness, `"token_note"`)
	assert.NotContains(t, got, "d3sk-s3cr3t")
	assert.Contains(t, got, `"answers":[["(secret)"]]`, "the desk's line")
	assert.Contains(t, got, `"token_note":"(secret)"`)
}

// A form field of format "password" is a secret question like Codex's.
func TestPasswordFieldIsSecret(t *testing.T) {
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Log in","requestedSchema":{"type":"object",` +
		`"properties":{"user":{"type":"string","title":"User"},"pass":{"type":"string","title":"Password","format":"password"}},"required":["user","pass"]}}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"alice"}}}`)
	req, _ = h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"pa55word"}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"user":"alice","pass":"pa55word"}}`, string(h.AgentReply(t, "7").Result))
	got := recordedWithin(t, h.Harness, `"pass":"(secret)"`)
	assert.NotContains(t, got, "pa55word")
	assert.Contains(t, got, "alice", "a field not secret is recorded as it was")
	assert.Contains(t, got, "Password: "+permission.SecretAnswer, "the summary hides it")

}
