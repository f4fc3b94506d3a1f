package adapter

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// Nowhere to go is said at once. A set on the board only (--questions desk,
// --approvals desk) waits for the desk, the hub or a notification's button;
// with none there (no --desk, and a hub that is not running, or a typo in
// --hub) it would wait in silence. So askbridge says so within seconds: a
// log line at once and a reminder every NoRouteReminder, and a message in
// the session; and again when a route appears (the hub connects) or goes.

const (
	// RoutePoll is how often the routes of a waiting set are looked at.
	RoutePoll = time.Second
	// NoRouteReminder is how often a set nowhere can answer is mentioned
	// again.
	NoRouteReminder = time.Minute
)

// routeTiming overrides RoutePoll and NoRouteReminder (tests).
type routeTiming struct{ poll, remind time.Duration }

// watchRoutes says, until ctx ends, when nothing can answer req now and
// when something can again. Options.Routes tells; nil says nothing.
func (b *Bridge) watchRoutes(ctx context.Context, req permission.Request) {
	if b.opts.Routes == nil {
		return
	}
	approval := req.Approval != nil
	routes, missing := b.opts.Routes(approval)
	none := len(routes) == 0
	said := time.Now()
	if none {
		b.sayNoRoute(req, missing, false)
	}
	poll := time.NewTicker(cmp.Or(b.routeTiming.poll, RoutePoll))
	defer poll.Stop()
	remind := cmp.Or(b.routeTiming.remind, NoRouteReminder)
	for {
		select {
		case <-ctx.Done():
			return
		case <-poll.C:
		}
		routes, missing = b.opts.Routes(approval)
		switch {
		case none && len(routes) > 0:
			none = false
			b.sayRoute(req, routes)
		case !none && len(routes) == 0, none && time.Since(said) >= remind:
			b.sayNoRoute(req, missing, none)
			none, said = true, time.Now()
		}
	}
}

// what names a set for a person: "the question “Database”".
func what(req permission.Request) string {
	kind := "question"
	if req.Approval != nil {
		kind = "approval"
	}
	var hs []string
	for _, q := range req.Questions {
		hs = append(hs, q.Header)
	}
	return fmt.Sprintf("the %s “%s”", kind, strings.Join(hs, ", "))
}

func (b *Bridge) sayNoRoute(req permission.Request, missing string, again bool) {
	msg := "nowhere can answer " + what(req) + " now: " + missing + "; it waits until somewhere can"
	if again {
		msg = "still " + msg
	}
	b.logger.Warn("askbridge: "+msg, "session", req.SessionID)
	b.tellClient(req.SessionID, "askbridge: "+msg+".")
}

func (b *Bridge) sayRoute(req permission.Request, routes []string) {
	msg := what(req) + " can be answered now: " + strings.Join(routes, ", ")
	b.logger.Info("askbridge: "+msg, "session", req.SessionID)
	b.tellClient(req.SessionID, "askbridge: "+msg+".")
}
