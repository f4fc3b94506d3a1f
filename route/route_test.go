package route_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
)

// toy is a chat bridge that answers every question with its options'
// first, under a route it declares itself (toyRoute): its whole
// registration is one table line. route/toychat is the recipe's
// toy with a credential of its own.
type toy struct{ online *atomic.Bool }

// toyRoute proves nothing: the gate lets it answer questions only.
var toyRoute = permission.NewRoute(permission.RouteInfo{Name: "the toy", Source: "toy"})

func (toy) Name() string { return "toy" }

func (t toy) Start(env *route.Env) (route.Running, error) {
	ctx, cancel := context.WithCancel(env.Ctx)
	events := env.Board.Subscribe(ctx)
	go func() {
		for ev := range events {
			if ev.Type != permission.EventAsked || !t.online.Load() {
				continue
			}
			answers := make([]permission.Answer, len(ev.Pending.Asking))
			for i, a := range ev.Pending.Asking {
				answers[i] = permission.Answer{Labels: []string{a.Question.Options[0].Label}}
			}
			by := permission.By{Device: "toy-1", Name: "the toy chat", Source: "toy", Route: toyRoute}
			env.Board.ProgressBy(ev.Pending.ID, ev.Pending.Step, answers, by)
		}
	}()
	return &toyRunning{online: t.online, cancel: cancel}, nil
}

type toyRunning struct {
	online *atomic.Bool
	cancel context.CancelFunc
}

func (r *toyRunning) Where() string {
	if r.online.Load() {
		return "the toy chat"
	}
	return ""
}
func (r *toyRunning) Missing() string { return "the toy chat is offline" }
func (r *toyRunning) Showing() bool   { return r.online.Load() }
func (r *toyRunning) Close()          { r.cancel() }

func TestAToyRouteRegisteredInTheTableAnswers(t *testing.T) {
	var online atomic.Bool
	board := permission.NewBoard()
	table := []route.Route{offRoute{}, toy{&online}} // the toy's one line
	set, err := route.Start(&route.Env{Ctx: t.Context(), Board: board}, table)
	require.NoError(t, err)
	defer set.Close()

	where, missing := set.Routes(false)
	assert.False(t, set.Elsewhere(), "offline, the toy cannot answer")
	assert.Empty(t, where)
	assert.Equal(t, "no --off; the toy chat is offline", missing, "each route says what it lacks, in the table's order")

	online.Store(true)
	assert.True(t, set.Elsewhere(), "the table is asked, not a closure")
	assert.True(t, set.Attended())
	where, missing = set.Routes(false)
	assert.Equal(t, []string{"the toy chat"}, where)
	assert.Empty(t, missing)

	q := permission.Question{Question: "Which?", Header: "Pick", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}
	ticket := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{q}})
	select {
	case <-ticket.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the toy route never answered")
	}
	res := ticket.Result()
	require.Len(t, res.Answers, 1)
	assert.Equal(t, []string{"a"}, res.Answers[0].Answer.Labels)
	assert.Equal(t, "the toy chat", res.Device, "the board records who answered")
}

// A toy route answers an approval without a passkey: the board's gate
// refuses it, whatever the route thinks of itself.
func TestAToyRouteCannotApproveWithoutPresence(t *testing.T) {
	board := permission.NewBoard()
	q := permission.Question{Question: "Run rm?", Header: "Approve", Options: []permission.Option{{Label: "Allow"}, {Label: "Deny"}}}
	ticket := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{q}, Approval: &permission.Approval{}})
	by := permission.By{Device: "toy-1", Route: toyRoute}
	_, err := board.ProgressBy(ticket.ID, 0, []permission.Answer{{Labels: []string{"Allow"}}}, by)
	require.ErrorIs(t, err, permission.ErrPresence)
	p, _ := board.Get(ticket.ID)
	assert.Equal(t, permission.StatePending, p.State)
}

// A route that cannot start stops the table: those started are closed,
// and its own error (which names its flag) is what the user reads.
func TestARouteThatCannotStartClosesThoseBefore(t *testing.T) {
	var online atomic.Bool
	closed := &closeCount{}
	table := []route.Route{counted{closed}, toy{&online}, failing{}}
	_, err := route.Start(&route.Env{Ctx: t.Context(), Board: permission.NewBoard()}, table)
	require.Error(t, err)
	assert.True(t, route.IsRoute(err))
	assert.Equal(t, "--failing: the address is taken", err.Error())
	assert.Equal(t, int32(1), closed.n.Load())
}

type offRoute struct{}

func (offRoute) Name() string                            { return "off" }
func (offRoute) Start(*route.Env) (route.Running, error) { return route.Off("no --off"), nil }

type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Start(*route.Env) (route.Running, error) {
	return nil, errors.New("--failing: the address is taken")
}

type closeCount struct{ n atomic.Int32 }

type counted struct{ c *closeCount }

func (counted) Name() string                              { return "counted" }
func (c counted) Start(*route.Env) (route.Running, error) { return c, nil }
func (counted) Where() string                             { return "" }
func (counted) Missing() string                           { return "" }
func (counted) Showing() bool                             { return false }
func (c counted) Close()                                  { c.c.n.Add(1) }
