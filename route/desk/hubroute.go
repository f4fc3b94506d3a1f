package desk

import (
	"maps"
	"net"
	"net/http"

	"github.com/askbridge/askbridge/route"
)

// HubPage is askbridge hub's page as a route: the desk in hub mode on
// Listener, serving besides its own API what the routes before it left in
// env.API (Web Push's) and Options.Routes (the hub's own). It leaves for
// the routes after it its address (DeskURL, where the notifiers' buttons
// post), its API as the user's own processes reach it (Local: the
// terminal inbox's) and its pairing links (PairURL).
type HubPage struct {
	Listener net.Listener
	// Options but Hub and Logger, which Start fills, and Taps, which env
	// gives when Options does not. Where a set comes from is the board's
	// to say (permission.Pending.Origin).
	Options Options
}

// Name is route.Route's.
func (HubPage) Name() string { return "page" }

// Start serves the page until the route is closed.
func (p HubPage) Start(env *route.Env) (route.Running, error) {
	opts := p.Options
	opts.Hub, opts.Logger = true, env.Logger
	if opts.Taps == nil {
		opts.Taps = env.Taps
	}
	opts.Routes = maps.Clone(opts.Routes)
	if opts.Routes == nil {
		opts.Routes = map[string]http.HandlerFunc{}
	}
	maps.Copy(opts.Routes, env.API)
	srv := New(p.Listener, env.Board, opts)
	env.DeskURL, env.Local, env.PairURL = srv.URL(), srv.LocalHandler(), srv.PairURL
	return running{srv, "the hub's page at "}, nil
}
