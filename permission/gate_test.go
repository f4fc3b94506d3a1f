package permission

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The gate, route by route: each route with its own credential, for a
// question and an approval, with and without the user's presence. The
// want column is the security model's: an approval needs presence (or the
// route is the asker's own), a question needs the route's credential, a
// notification's button never approves.
func TestGateEachRouteKindAndPresence(t *testing.T) {
	type row struct {
		route    Route
		cred     Proof // what the route shows of itself
		question error // with or without presence, a question
		bare     error // an approval without presence
		present  error // an approval with presence
	}
	for _, r := range []row{
		{RouteEditor, 0, nil, nil, nil},
		{RouteTerminal, 0, nil, nil, nil},
		{RoutePage, ProofDevice, nil, ErrPresence, nil},
		{RouteInbox, ProofPeer, nil, ErrPresence, nil},
		{RouteTap, ProofToken, nil, ErrNeverApproves, ErrNeverApproves},
	} {
		for _, presence := range []bool{false, true} {
			proof := r.cred
			if presence {
				proof |= ProofPresence
			}
			by := By{Route: r.route, Proof: proof}
			name := fmt.Sprintf("%s, presence %t", r.route, presence)
			assertGate(t, r.question, Gate(Pending{Kind: KindQuestion}, by), "a question by "+name)
			want := r.bare
			if presence {
				want = r.present
			}
			assertGate(t, want, Gate(Pending{Kind: KindApproval}, by), "an approval by "+name)
		}
	}
}

// Without its credential a route answers nothing, presence or not; the
// user's standing leave stands in for presence, never for the credential,
// and never on a notification's button.
func TestGateWantsEachRoutesCredential(t *testing.T) {
	for _, route := range []Route{RoutePage, RouteInbox, RouteTap} {
		for _, kind := range []Kind{KindQuestion, KindApproval} {
			err := Gate(Pending{Kind: kind}, By{Route: route, Proof: ProofPresence | ProofLeave})
			if route == RouteTap && kind == KindApproval {
				assertGate(t, ErrNeverApproves, err, "a tap on an approval")
				continue
			}
			assertGate(t, ErrUnvouched, err, fmt.Sprintf("a %s by %s with no credential", kind, route))
		}
	}
	assertGate(t, nil, Gate(Pending{Kind: KindApproval}, By{Route: RoutePage, Proof: ProofDevice | ProofLeave}), "a device paired with leave to approve")
	assertGate(t, nil, Gate(Pending{Kind: KindApproval}, By{Route: RouteInbox, Proof: ProofPeer | ProofLeave}), "--inbox-approvals")
	assertGate(t, ErrNeverApproves, Gate(Pending{Kind: KindApproval}, By{Route: RouteTap, Proof: ProofToken | ProofLeave}), "no leave makes a tap approve")
	assertGate(t, ErrUnvouched, Gate(Pending{Kind: KindQuestion}, By{Route: Route(99), Proof: ProofDevice | ProofPresence}), "a route the gate does not know")
}

func assertGate(t *testing.T, want, got error, msg string) {
	t.Helper()
	if want == nil {
		assert.NoError(t, got, msg)
		return
	}
	var ge *GateError
	if assert.ErrorAs(t, got, &ge, msg) {
		assert.ErrorIs(t, got, want, msg)
		assert.NotEmpty(t, ge.Error(), msg)
	}
}

// The board applies the gate to every answer naming its route, at the
// moment it takes it: an approval from the page without presence stays
// pending, and the same answer with presence resolves it.
func TestProgressByGatesARoutedAnswer(t *testing.T) {
	b := NewBoard()
	tk := b.Open(Request{SessionID: "s", Approval: &Approval{Options: []ApprovalOption{{OptionID: "allow", Name: "Allow", Kind: "allow_once"}}},
		Questions: []Question{{Question: "Run it?", Header: "Approve", Options: []Option{{Label: "Allow"}, {Label: "Reject"}}}}})
	allow := []Answer{{Labels: []string{"Allow"}}}
	_, err := b.ProgressBy(tk.ID, 0, allow, By{Device: "d1", Route: RoutePage, Proof: ProofDevice})
	require.True(t, errors.Is(err, ErrPresence), "refused: %v", err)
	p, _ := b.Get(tk.ID)
	assert.Equal(t, StatePending, p.State)
	_, err = b.ProgressBy(tk.ID, 0, allow, By{Device: "d1", Route: RouteTap, Proof: ProofToken})
	require.True(t, errors.Is(err, ErrNeverApproves), "refused: %v", err)
	done, err := b.ProgressBy(tk.ID, 0, allow, By{Device: "d1", Route: RoutePage, Proof: ProofDevice | ProofPresence})
	require.NoError(t, err)
	assert.True(t, done)
}

// What a listener vouched for travels with the call's context, and
// nothing is vouched for unless said.
func TestVouchTravelsWithTheContext(t *testing.T) {
	_, ok := Vouched(t.Context())
	assert.False(t, ok)
	proof, ok := Vouched(Vouch(t.Context(), ProofPeer|ProofLeave))
	assert.True(t, ok)
	assert.Equal(t, ProofPeer|ProofLeave, proof)
}

// editor is who answers in the board's own tests: the editor's route,
// which needs no credential.
var editor = By{Route: RouteEditor}

// An answer that names no route is refused, question or approval: a route
// that forgets to say what it checked fails closed. Before, the board let
// it through ungated.
func TestAnAnswerThatNamesNoRouteIsRefused(t *testing.T) {
	b := NewBoard()
	tk := b.Open(Request{SessionID: "s", Questions: []Question{q("Q?", "H", "a", "b")}})
	_, err := b.ProgressBy(tk.ID, 0, []Answer{{Labels: []string{"a"}}}, By{Device: "d1", Proof: ProofDevice | ProofPresence})
	require.ErrorIs(t, err, ErrUnvouched)
	p, _ := b.Get(tk.ID)
	assert.Equal(t, StatePending, p.State)
	done, err := b.ProgressBy(tk.ID, 0, []Answer{{Labels: []string{"a"}}}, editor)
	require.NoError(t, err)
	assert.True(t, done)
}
