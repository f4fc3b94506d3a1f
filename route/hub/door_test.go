package hub

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// The hub's answer is weighed again where the agent is: an approval the
// hub decided without the user's presence (here by a route that proves
// none) is refused by the askbridge's board and stays pending there, and
// a question the hub answered the same way is taken. Before, the
// askbridge applied whatever the hub sent with Board.Answer, ungated.
func TestTheHubsApprovalWithoutPresenceIsRefusedAtTheAskbridge(t *testing.T) {
	path := socket(t)
	_, hb, _ := startHub(t, path)
	b, _ := report(t, path, "/src/one")
	a := &permission.Approval{ToolCall: []byte(`{"title":"rm -rf build","kind":"execute"}`),
		Options: []permission.ApprovalOption{{OptionID: "ok", Name: "Allow", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	approval := b.Open(permission.Request{SessionID: "s", Approval: a, Questions: []permission.Question{
		{Question: "rm -rf build", Header: "Approval", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow"}, {Label: "Reject"}}}}})
	question := ask(b, "s", "Which?")
	list := waitPending(t, hb, 2)
	for _, p := range list {
		label := "a"
		if p.Kind == permission.KindApproval {
			label = "Allow"
		}
		_, err := hb.ProgressBy(p.ID, 0, []permission.Answer{{Labels: []string{label}}}, permissiontest.InProcess(""))
		require.NoError(t, err, "the hub's own board takes it (the editor's route, as a test plays it)")
	}
	select {
	case <-question.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the hub's answer to a question did not reach the askbridge")
	}
	time.Sleep(200 * time.Millisecond) // the approval's answer came by the same link, before
	select {
	case <-approval.Done():
		t.Fatalf("the askbridge took the hub's approval without presence: %+v", approval.Result())
	default:
	}
	got, _ := b.Get(approval.ID)
	assert.Equal(t, permission.StatePending, got.State)
}
