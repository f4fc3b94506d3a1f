package desk

import (
	"context"
	"net/http"
)

// LocalHandler is the API for a listener that vouches for its callers
// itself, with no token or cookie: the hub's inbox socket, which lets in
// only this user's processes outside every agent's process tree (the
// kernel's peer credentials) and decides which routes and sets they may
// answer (hub.ServeInbox: approvals only when the hub allows them). The
// guard's rules (loopback Host, no other Origin, the security headers)
// still apply. Never serve it on TCP.
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

type localKey struct{}
