package hub

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// An approval denied at the hub with a reason reaches its askbridge with
// the reason and the device that decided, for the agent's bridge to hand
// the model.
func TestADenialsReasonReachesTheAskbridge(t *testing.T) {
	path := socket(t)
	_, hb, _ := startHub(t, path)
	b, _ := report(t, path, "/src/one")
	a := &permission.Approval{ToolCall: []byte(`{"title":"rm -rf data","kind":"execute"}`),
		Options: []permission.ApprovalOption{{OptionID: "ok", Name: "Allow", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	tk := b.Open(permission.Request{SessionID: "s", Approval: a, Questions: []permission.Question{
		{Question: "rm -rf data", Header: "Approval", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow"}, {Label: "Reject"}}}}})
	list := waitPending(t, hb, 1)
	_, err := hb.ProgressBy(list[0].ID, 0, []permission.Answer{{Labels: []string{"Reject"}}}, permission.By{Device: "d1", Name: "Pixel 8", Reason: "move it to archive/", Route: permission.RoutePage, Proof: permission.ProofDevice | permission.ProofPresence})
	require.NoError(t, err)
	select {
	case <-tk.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the hub's answer did not reach the askbridge")
	}
	r := tk.Result()
	assert.Equal(t, []string{"Reject"}, r.Answers[0].Answer.Labels)
	assert.Equal(t, "move it to archive/", r.DenyReason)
	assert.Equal(t, "Pixel 8", r.Device)
	assert.Equal(t, permission.SourceHub, r.Source)
}
