package notify

import "github.com/askbridge/askbridge/route"

// Route is the notifiers of one askbridge as a route: Options as the
// flags say them. The desk's address and the buttons' key come from the
// desk's route, started before it; the logger from the route's Env.
type Route struct{ Options Options }

// Name is route.Route's.
func (Route) Name() string { return "notify" }

// Start is route.Route's: nil when the flags ask for no notifier.
func (r Route) Start(env *route.Env) (route.Running, error) {
	opts := r.Options
	opts.DeskURL, opts.Taps, opts.Logger = env.DeskURL, env.Taps, env.Logger
	n, err := Start(env.Board, opts)
	if err != nil {
		return nil, err
	}
	if !n.Active() {
		n.Close()
		return nil, nil
	}
	return notifying{n}, nil
}

// notifying is a started Route: it shows sets, and is answered through
// the desk (its buttons) or elsewhere.
type notifying struct{ *Notifier }

func (notifying) Where() string   { return "" }
func (notifying) Missing() string { return "" }
func (notifying) Showing() bool   { return true }
