package permission

import (
	"errors"
	"fmt"
)

// Who may answer what is decided here and nowhere else. Each way a person
// answers (a Route) shows what it checked of whoever answers through it (a
// Proof); Gate weighs the two against the set:
//
//   - the editor and askbridge's own terminal answer anything: a person
//     there is the user the agent asked (the asker's own routes);
//   - every other route needs its credential for a question: the page a
//     paired device, the terminal inbox the kernel's word that its caller is
//     the user outside every agent's tree, a notification's button its
//     signed one-time token;
//   - an approval needs, besides, the user's presence (a passkey assertion
//     with user verification, for those very answers), or the user's
//     standing leave for that route (ProofLeave);
//   - a notification's button never approves;
//   - the askbridge that asked ends its own sets on the hub (the hub's
//     socket checked it is the user's process: ProofPeer), as its editor
//     or terminal decided them;
//   - the hub's answers reach an askbridge over a link that proved the
//     hub's key (ProofHubKey), and approve only with the presence (or
//     leave) the hub's page checked, which they carry;
//   - askbridge itself (a deadline, a withdrawal, a link gone) cancels
//     anything and answers only questions: it never says yes for the user.

// Gate's refusals, as errors.Is finds them in a *GateError.
var (
	// ErrPresence: an approval without the user's presence (or leave).
	ErrPresence = errors.New("an approval needs your presence: a passkey")
	// ErrNeverApproves: a route that never approves (a notification's
	// button, askbridge itself) met an approval.
	ErrNeverApproves = errors.New("this route never approves")
	// ErrUnvouched: a route without its credential (or no route at all).
	ErrUnvouched = errors.New("the route did not vouch for who answers")
)

// GateError is Gate's refusal: what by Route lacked to answer a set of Kind.
type GateError struct {
	Route   Route
	Kind    Kind
	Missing Proof // what it lacked; 0 when nothing would do
	Err     error // ErrPresence, ErrNeverApproves or ErrUnvouched
}

func (e *GateError) Error() string {
	switch {
	case e.Err == ErrNeverApproves:
		return e.Route.String() + " never approves: approve it at the page, with your passkey, or in the editor"
	case e.Err == ErrPresence && e.Route == RouteInbox:
		return "no approvals from the terminal inbox without your leave: answer it in the editor, or at the page with a passkey"
	case e.Err == ErrPresence:
		return e.Err.Error() + ", and none came by " + e.Route.String()
	case e.Missing == 0:
		return fmt.Sprintf("%s: no route named", e.Err)
	}
	return fmt.Sprintf("%s answers a %s only with %s", e.Route, e.Kind, e.Missing)
}

func (e *GateError) Unwrap() error { return e.Err }

// Gate says whether by may answer p (nil: it may), by by.Route with
// by.Proof: the rule above, the one place it is kept. A refusal is a
// *GateError. Board.ProgressBy applies it to every answer that names its
// route.
func Gate(p Pending, by By) error {
	info, known := by.Route.Info()
	refuse := func(missing Proof, err error) error {
		return &GateError{Route: by.Route, Kind: p.Kind, Missing: missing, Err: err}
	}
	approval := p.Kind == KindApproval
	switch {
	case !known:
		return refuse(0, ErrUnvouched)
	case info.NeverApproves && approval:
		return refuse(0, ErrNeverApproves)
	case !by.Proof.Has(info.Credential):
		return refuse(info.Credential&^by.Proof, ErrUnvouched)
	case info.Asker || !approval:
		return nil
	case by.Proof.Has(ProofPresence) || by.Proof.Has(ProofLeave):
		return nil
	}
	return refuse(ProofPresence, ErrPresence)
}

// GateEnd says whether by may end p so (nil: it may): an answer as Gate
// weighs it; a cancel takes the route's credential alone (whoever may
// answer a set may also decline it).
func GateEnd(p Pending, by By, cancelled bool) error {
	if !cancelled {
		return Gate(p, by)
	}
	info, known := by.Route.Info()
	switch {
	case !known:
		return &GateError{Route: by.Route, Kind: p.Kind, Err: ErrUnvouched}
	case !by.Proof.Has(info.Credential):
		return &GateError{Route: by.Route, Kind: p.Kind, Missing: info.Credential &^ by.Proof, Err: ErrUnvouched}
	}
	return nil
}
