package desk

import (
	"context"
	"net/http"

	"github.com/askbridge/askbridge/permission"
)

// LocalHandler is the API for a listener that vouches for its callers
// itself, with no token or cookie: the hub's inbox socket, which lets in
// only this user's processes outside every agent's process tree (the
// kernel's peer credentials). What the listener checked of a request
// (permission.Vouch; permission.ProofPeer when it says nothing) is what
// the board's gate weighs: an approval passes only with the user's leave
// (permission.ProofLeave, the hub's --inbox-approvals). The guard's rules
// (loopback Host, no other Origin, the security headers) still apply.
// Never serve it on TCP.
func (s *Server) LocalHandler() http.Handler {
	next := s.guard(s.api)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), localKey{}, true)))
	})
}

// Local says whether r came through LocalHandler: its caller was vouched
// for by the listener, not by a token, a cookie or a passkey.
func Local(r *http.Request) bool {
	v, _ := r.Context().Value(localKey{}).(bool)
	return v
}

// vouched is what r's listener vouched for (permission.Vouch): the peer's
// credentials when it said nothing, as LocalHandler's listener must check
// them.
func vouched(r *http.Request) permission.Proof {
	if p, ok := permission.Vouched(r.Context()); ok {
		return p
	}
	return permission.ProofPeer
}

type localKey struct{}
