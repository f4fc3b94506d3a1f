package desk

import (
	"net"
	"net/http"

	"github.com/askbridge/askbridge/internal/connpool"
)

// pool puts the desk's connections in a connpool.Pool of MaxConns
// strangers: a connection that has not authenticated (s.authenticated)
// cannot crowd out one that has, however many there are, and sends its
// headers within connpool.HeaderTimeout. It sets s.srv's handler to h
// behind the pool, and returns the listener to serve.
func (s *Server) pool(ln net.Listener, h http.Handler) net.Listener {
	p := connpool.New(connpool.Options{Strangers: s.opts.MaxConns, Name: "desk", Logger: s.logger})
	p.Server(s.srv)
	s.srv.Handler = p.Handler(s.authenticated, h)
	s.conns = p
	s.opts.Devices.OnRevoke(func(id string) {
		if n := p.CloseOwned(id); n > 0 {
			s.logger.Info("desk: closed a revoked device's connections", "device", id, "connections", n)
		}
	})
	return p.Listener(ln)
}
