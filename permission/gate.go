package permission

import (
	"errors"
	"fmt"
	"strings"
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

// Route is a way a person answers a set.
type Route uint8

// Routes.
const (
	RouteEditor   Route = iota + 1 // the editor's own permission request
	RouteTerminal                  // askbridge's own terminal prompter
	RoutePage                      // the desk's or the hub's page, in a browser
	RouteInbox                     // askbridge inbox, the hub's terminal inbox
	RouteTap                       // a notification's answer button
	RouteAsker                     // at the hub: the askbridge that asked, ending its own set
	RouteHub                       // at an askbridge: an answer the hub sent over its link
	RouteSelf                      // askbridge itself: deadlines, withdrawals, a peer gone
)

var routeNames = map[Route]string{RouteEditor: "the editor", RouteTerminal: "askbridge's terminal",
	RoutePage: "the page", RouteInbox: "the terminal inbox", RouteTap: "a notification's button",
	RouteAsker: "the askbridge that asked", RouteHub: "the hub", RouteSelf: "askbridge itself"}

func (r Route) String() string {
	if s, ok := routeNames[r]; ok {
		return s
	}
	return fmt.Sprintf("route %d", r)
}

// Proof is what a route checked of whoever answers through it. Proofs add
// up: a page's answer to an approval shows ProofDevice|ProofPresence.
type Proof uint8

// Proofs.
const (
	// ProofDevice: the session of a paired device (its cookie and its key).
	ProofDevice Proof = 1 << iota
	// ProofPresence: a passkey assertion with user verification, signed
	// for the very answers it comes with.
	ProofPresence
	// ProofPeer: the kernel's peer credentials say the caller is the
	// user's own process, outside every agent's process tree.
	ProofPeer
	// ProofToken: a one-time answer token askbridge signed for one option.
	ProofToken
	// ProofLeave: the user's standing leave to approve by this route
	// without a passkey (a device paired so; the hub's --inbox-approvals).
	ProofLeave
	// ProofHubKey: the link the answer came by proved the hub's key.
	ProofHubKey
)

var proofNames = []string{"a paired device", "your presence (a passkey)", "the kernel's word on the caller",
	"a signed answer token", "your leave to approve there without a passkey", "the hub's key"}

// Has says whether p holds every proof of want.
func (p Proof) Has(want Proof) bool { return p&want == want }

func (p Proof) String() string {
	var out []string
	for i, name := range proofNames {
		if p.Has(1 << i) {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, " and ")
}

// credential is what each route needs for any answer; the asker's own
// routes need none.
var credential = map[Route]Proof{RouteEditor: 0, RouteTerminal: 0, RoutePage: ProofDevice, RouteInbox: ProofPeer, RouteTap: ProofToken,
	RouteAsker: ProofPeer, RouteHub: ProofHubKey, RouteSelf: 0}

// asker are the asker's own routes: once their credential holds they
// answer anything, approvals too (the person there is the user the agent
// asked).
var asker = map[Route]bool{RouteEditor: true, RouteTerminal: true, RouteAsker: true}

// Gate's refusals, as errors.Is finds them in a *GateError.
var (
	// ErrPresence: an approval without the user's presence (or leave).
	ErrPresence = errors.New("an approval needs your presence: a passkey")
	// ErrNeverApproves: a route that never approves met an approval.
	ErrNeverApproves = errors.New("a notification's button never approves")
	// ErrUnvouched: a route without its credential (or no route at all).
	ErrUnvouched = errors.New("the route did not vouch for who answers")
	// ErrSelfApproves: askbridge answering an approval by itself.
	ErrSelfApproves = errors.New("askbridge never approves by itself")
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
	case e.Err == ErrSelfApproves:
		return e.Err.Error() + ": only a person answers an approval"
	case e.Err == ErrNeverApproves:
		return e.Err.Error() + ": approve it at the page, with your passkey, or in the editor"
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
	need, known := credential[by.Route]
	refuse := func(missing Proof, err error) error {
		return &GateError{Route: by.Route, Kind: p.Kind, Missing: missing, Err: err}
	}
	approval := p.Kind == KindApproval
	switch {
	case !known:
		return refuse(0, ErrUnvouched)
	case by.Route == RouteTap && approval:
		return refuse(0, ErrNeverApproves)
	case by.Route == RouteSelf && approval:
		return refuse(0, ErrSelfApproves)
	case !by.Proof.Has(need):
		return refuse(need&^by.Proof, ErrUnvouched)
	case asker[by.Route] || !approval:
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
	need, known := credential[by.Route]
	switch {
	case !known:
		return &GateError{Route: by.Route, Kind: p.Kind, Err: ErrUnvouched}
	case !by.Proof.Has(need):
		return &GateError{Route: by.Route, Kind: p.Kind, Missing: need &^ by.Proof, Err: ErrUnvouched}
	}
	return nil
}
