package desk

import "net/http"

// LocalHandler is the API for a listener that vouches for its callers
// itself, with no token or cookie: the hub's inbox socket, which lets in
// only this user's processes outside every agent's process tree (the
// kernel's peer credentials) and decides which routes and sets they may
// answer (hub.ServeInbox). The guard's rules (loopback Host, no other
// Origin, the security headers) still apply. Never serve it on TCP.
func (s *Server) LocalHandler() http.Handler { return s.guard(s.api) }
