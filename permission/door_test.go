package permission

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every way a set ends goes through the door, and each of the board's
// former doors (Answer: the editor's or the hub's answer, Cancel and
// CancelFrom: a deadline or a withdrawal, CancelBy: a page's reject; all
// ungated but CancelBy's claim) is refused without its route's
// credential: the set stays pending.
func TestTheDoorRefusesAnEndWithoutItsRoutesCredential(t *testing.T) {
	yes := []Answered{{Answer: Answer{Labels: []string{"Allow"}}, Path: "questions[0]"}}
	for _, c := range []struct {
		name     string
		approval bool
		r        Result
		by       By
		err      error // nil: let through
	}{
		{name: "no route at all", r: Result{Answers: yes}, by: By{}, err: ErrUnvouched},
		{name: "the hub's answer without the hub's key", r: Result{Answers: yes}, by: By{Route: RouteHub}, err: ErrUnvouched},
		{name: "the hub's answer over its proved link", r: Result{Answers: yes}, by: By{Route: RouteHub, Proof: ProofHubKey}},
		{name: "the hub's approval without presence", approval: true, r: Result{Answers: yes}, by: By{Route: RouteHub, Proof: ProofHubKey}, err: ErrPresence},
		{name: "the hub's approval with the page's passkey", approval: true, r: Result{Answers: yes}, by: By{Route: RouteHub, Proof: ProofHubKey | ProofPresence}},
		{name: "the hub's cancel without the hub's key", r: Result{Cancelled: true}, by: By{Route: RouteHub}, err: ErrUnvouched},
		{name: "a page's reject without a device", r: Result{Cancelled: true}, by: By{Route: RoutePage}, err: ErrUnvouched},
		{name: "a page's reject by a paired device", r: Result{Cancelled: true}, by: By{Route: RoutePage, Proof: ProofDevice}},
		{name: "the asker's end on the hub without the kernel's word", r: Result{Answers: yes}, by: By{Route: RouteAsker}, err: ErrUnvouched},
		{name: "the asker's approval on the hub", approval: true, r: Result{Answers: yes}, by: By{Route: RouteAsker, Proof: ProofPeer}},
		{name: "askbridge approving by itself", approval: true, r: Result{Answers: yes}, by: BySelf(SourceTimeout), err: ErrNeverApproves},
		{name: "askbridge's deadline on an approval", approval: true, r: Result{Cancelled: true, Reason: ReasonTimeout}, by: BySelf(SourceTimeout)},
		{name: "askbridge answering a question at its deadline", r: Result{Answers: yes}, by: BySelf(SourceTimeout)},
		{name: "the editor's approval", approval: true, r: Result{Answers: yes}, by: ByEditor()},
		{name: "a notification's button approving", approval: true, r: Result{Answers: yes}, by: By{Route: RouteTap, Proof: ProofToken}, err: ErrNeverApproves},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := NewBoard()
			req := Request{SessionID: "s", Questions: []Question{{Question: "Q?", Header: "H", Options: []Option{{Label: "Allow"}, {Label: "No"}}}}}
			if c.approval {
				req.Approval = &Approval{ToolCall: []byte(`{"title":"rm -rf build"}`), Options: []ApprovalOption{{OptionID: "ok", Name: "Allow", Kind: "allow_once"}}}
			}
			tk := b.Open(req)
			err := b.Settle(tk.ID, c.r, c.by)
			p, _ := b.Get(tk.ID)
			if c.err == nil {
				require.NoError(t, err)
				assert.NotEqual(t, StatePending, p.State)
				assert.Equal(t, c.by.Proof, tk.Result().Proof, "the result says what the route checked")
				return
			}
			var gate *GateError
			require.True(t, errors.As(err, &gate), "a *GateError: %v", err)
			assert.ErrorIs(t, err, c.err)
			assert.Equal(t, StatePending, p.State, "a refused end leaves the set pending")
		})
	}
}

// A paired device's reject is held back by another device's claim, as
// its answer is; the editor's is not.
func TestTheDoorHoldsAClaim(t *testing.T) {
	b := NewBoard()
	tk := b.Open(Request{SessionID: "s", Questions: []Question{{Question: "Q?", Header: "H", Options: []Option{{Label: "a"}}}}})
	mine := By{Device: "d1", Route: RoutePage, Proof: ProofDevice}
	_, err := b.Claim(tk.ID, mine, time.Minute, false)
	require.NoError(t, err)
	var claimed *ClaimedError
	assert.ErrorAs(t, b.Withdraw(tk.ID, "no", By{Device: "d2", Route: RoutePage, Proof: ProofDevice}), &claimed)
	require.NoError(t, b.Withdraw(tk.ID, "the turn ended", ByEditor()))
}
