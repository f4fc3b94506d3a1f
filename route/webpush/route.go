package webpush

import (
	"context"
	"maps"
	"net/http"
	"path/filepath"

	"github.com/askbridge/askbridge/route"
)

// Route is the hub's Web Push as a route: it pushes the board's sets to
// the paired browsers that turned it on, with its keys and subscriptions
// in Dir (the hub's state folder), and leaves its API (Routes) in the
// route's Env for the page started after it.
type Route struct {
	Dir string // "": no state folder, no Web Push
	// Options but Keys, Store and Logger, which Start fills.
	Options Options
}

// Name is route.Route's.
func (Route) Name() string { return "web push" }

// Start opens the keys and the subscriptions and pushes from now until
// env.Ctx ends or the route is closed. Without them the hub runs on, with
// no Web Push (said in the log).
func (r Route) Start(env *route.Env) (_ route.Running, err error) {
	if r.Dir == "" {
		return route.Off("no Web Push: no state folder"), nil
	}
	opts := r.Options
	opts.Logger = env.Logger
	opts.Keys, err = LoadKeys(filepath.Join(r.Dir, "hub-vapid.json"))
	if err == nil {
		opts.Store, err = OpenStore(filepath.Join(r.Dir, "hub-push.json"))
	}
	if err != nil {
		env.Logger.Warn("hub: no Web Push this run", "err", err)
		return route.Off("no Web Push: " + err.Error()), nil
	}
	p := New(opts)
	ctx, cancel := context.WithCancel(env.Ctx)
	wait := p.Start(ctx, env.Board)
	if env.API == nil {
		env.API = map[string]http.HandlerFunc{}
	}
	maps.Copy(env.API, p.Routes())
	return pushing{store: opts.Store, cancel: cancel, wait: wait}, nil
}

// pushing is a started Route: it shows sets on the devices that turned it
// on, and answers none (a tap opens the page).
type pushing struct {
	store  *Store
	cancel context.CancelFunc
	wait   func()
}

func (pushing) Where() string   { return "" }
func (pushing) Missing() string { return "" }

// Showing says whether a device has push on.
func (p pushing) Showing() bool {
	p.store.mu.Lock()
	defer p.store.mu.Unlock()
	return len(p.store.subs) > 0
}

// Close stops the pushes and waits for those under way.
func (p pushing) Close() {
	p.cancel()
	p.wait()
}
