package permission

import (
	"fmt"
	"strings"
	"sync"
)

// A route describes itself: what it is called, the source the history
// records for it, the credential it proves and how the gate treats it
// (RouteInfo). askbridge's own routes are declared in the table below; a
// route of its own (a chat bridge whose callbacks carry a signature)
// declares itself with NewRoute, and a credential of its own with
// NewProof, with no edit here: the gate reads the table, not a list.

// Route is a way a person (or askbridge itself) ends a set.
type Route uint16

// Proof is what a route checked of whoever answers through it. Proofs add
// up: a page's answer to an approval shows ProofDevice|ProofPresence.
type Proof uint32

// RouteInfo is what a route says of itself.
type RouteInfo struct {
	Name   string // in the gate's refusals and the logs: "the page"
	Source Source // what the history records when the answer does not say
	// Credential is what the route proves of anyone who answers through
	// it; the gate refuses every end without it.
	Credential Proof
	// Asker: the asker's own route (the person there is the user the agent
	// asked), which answers anything, approvals too, once its credential
	// holds.
	Asker bool
	// NeverApproves: the route answers questions only; an approval it
	// answers is refused whatever it proves.
	NeverApproves bool
}

// askbridge's routes, in the table's order.
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

// askbridge's proofs.
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

var registry = struct {
	sync.RWMutex
	routes []RouteInfo // by Route-1
	proofs []string    // by bit
}{
	routes: []RouteInfo{
		{Name: "the editor", Source: SourceClient, Asker: true},
		{Name: "askbridge's terminal", Source: SourceTerminal, Asker: true},
		{Name: "the page", Source: SourceDesk, Credential: ProofDevice},
		{Name: "the terminal inbox", Source: SourceInbox, Credential: ProofPeer},
		{Name: "a notification's button", Source: SourceNotification, Credential: ProofToken, NeverApproves: true},
		{Name: "the askbridge that asked", Source: SourceClient, Credential: ProofPeer, Asker: true},
		{Name: "the hub", Source: SourceHub, Credential: ProofHubKey},
		{Name: "askbridge itself", Source: SourceClient, NeverApproves: true},
	},
	proofs: []string{"a paired device", "your presence (a passkey)", "the kernel's word on the caller",
		"a signed answer token", "your leave to approve there without a passkey", "the hub's key"},
}

// NewRoute declares a route and returns it. Call it once per route, at
// start (a package variable).
func NewRoute(info RouteInfo) Route {
	registry.Lock()
	defer registry.Unlock()
	registry.routes = append(registry.routes, info)
	return Route(len(registry.routes))
}

// NewProof declares a credential a route proves, named as the gate's
// refusals say it ("the chat's signed callback"), and returns it.
func NewProof(name string) Proof {
	registry.Lock()
	defer registry.Unlock()
	if len(registry.proofs) >= 32 {
		panic("permission: more than 32 proofs")
	}
	registry.proofs = append(registry.proofs, name)
	return 1 << (len(registry.proofs) - 1)
}

// Info is what r says of itself; ok is false for a route never declared.
func (r Route) Info() (info RouteInfo, ok bool) {
	registry.RLock()
	defer registry.RUnlock()
	if r == 0 || int(r) > len(registry.routes) {
		return RouteInfo{}, false
	}
	return registry.routes[r-1], true
}

func (r Route) String() string {
	if info, ok := r.Info(); ok {
		return info.Name
	}
	return fmt.Sprintf("route %d", r)
}

// Has says whether p holds every proof of want.
func (p Proof) Has(want Proof) bool { return p&want == want }

func (p Proof) String() string {
	registry.RLock()
	defer registry.RUnlock()
	var out []string
	for i, name := range registry.proofs {
		if p.Has(1 << i) {
			out = append(out, name)
		}
	}
	if len(out) == 0 {
		return "nothing"
	}
	return strings.Join(out, " and ")
}
