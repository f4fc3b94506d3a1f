package hub

import (
	"context"
	"errors"

	"github.com/askbridge/askbridge/route"
)

// InboxRoute is the hub's terminal inbox (askbridge inbox) as a route:
// the page's API (env.Local, left by the page's route, started before it)
// served on the inbox's socket of Listener to this user's processes
// outside the agents' trees (ServeInbox).
type InboxRoute struct {
	Hub      *Hub
	Listener *Listener
	Options  InboxOptions
}

// Name is route.Route's.
func (InboxRoute) Name() string { return "inbox" }

// Start serves the inbox until the route is closed or env.Ctx ends.
func (r InboxRoute) Start(env *route.Env) (route.Running, error) {
	if r.Listener == nil || r.Listener.Inbox == nil {
		return route.Off("no inbox socket"), nil
	}
	if env.Local == nil {
		return nil, errors.New("the terminal inbox serves the page's API: start the page's route before it")
	}
	ctx, cancel := context.WithCancel(env.Ctx)
	r.Hub.ServeInbox(ctx, r.Listener, env.Local, r.Options)
	return inboxing{where: "the terminal inbox (askbridge inbox) at " + r.Listener.Inbox.Addr().String(), cancel: cancel}, nil
}

// inboxing is a started InboxRoute.
type inboxing struct {
	where  string
	cancel context.CancelFunc
}

func (i inboxing) Where() string { return i.where }
func (inboxing) Missing() string { return "" }

// Showing is false: the inbox shows sets only when a person runs it,
// which the hub does not know.
func (inboxing) Showing() bool { return false }
func (i inboxing) Close()      { i.cancel() }
