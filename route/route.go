package route

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/permission"
)

// Route is one way besides the editor to answer the board's sets, as the
// flags configured it.
type Route interface {
	// Name names the route in logs and errors ("desk", "hub").
	Name() string
	// Start starts the route on env's board. When the flags ask for none
	// of it, it returns Off (saying what would turn it on) or nil (saying
	// nothing); an error stops askbridge before the agent starts.
	Start(env *Env) (Running, error)
}

// Running is a started route.
type Running interface {
	// Where says where a person can answer through the route now ("the
	// desk at URL"), "" when nowhere (a hub not connected).
	Where() string
	// Missing says what would let the route answer, for the notice that
	// nothing but the editor can; "" says nothing.
	Missing() string
	// Showing reports whether the route shows sets to a person now, even
	// one who answers elsewhere (a notification).
	Showing() bool
	Close()
}

// Env is what a route starts with. Routes start in the table's order, and
// a later one may read what an earlier one left here (a notification's
// buttons post to the desk).
type Env struct {
	Ctx     context.Context
	Board   *permission.Board
	Command []string // the agent's
	Logger  *slog.Logger
	Stderr  io.Writer // askbridge's own, for where a route is
	LogFile bool      // the logger writes to --log-file, where a user looks too
	// Where a set comes from (its agent, its folder) a route reads on the
	// set itself (permission.Pending.Origin): the composition describes
	// the board.
	//
	// Hear is where a route that hears what askbridge learns of itself
	// (the agent's and the editor's names, each session's folder and
	// mode) says so: the composition calls each with every change. The
	// hub's reporter tells the hub.
	Hear []func(change func(*permission.Origin))

	// Left by the desk (or the hub's page), read by the notifiers.
	DeskURL string           // the desk's page; "" with no desk
	Taps    *answertoken.Key // the notification buttons' key; nil: no buttons

	// Left by the hub's routes for those after them: API, the routes a
	// later page serves behind its session (Web Push's subscriptions);
	// Local, the page's API as the user's own processes reach it, which
	// checks no browser's credential (the terminal inbox serves it behind
	// its own checks); PairURL, the page's pairing link of a code.
	API     map[string]http.HandlerFunc
	Local   http.Handler
	PairURL func(code string) string
}

// Set is a started table.
type Set struct {
	names   []string
	running []Running
}

// Start starts table's routes in order. On an error it closes those it
// started and says which route failed.
func Start(env *Env, table []Route) (*Set, error) {
	s := &Set{}
	for _, r := range table {
		run, err := r.Start(env)
		if err != nil {
			s.Close()
			return nil, &Error{Route: r.Name(), Err: err}
		}
		if run != nil {
			s.names = append(s.names, r.Name())
			s.running = append(s.running, run)
		}
	}
	return s, nil
}

// Error is a route that could not start.
type Error struct {
	Route string
	Err   error
}

// Error is the route's own error, which names its flag.
func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// IsRoute reports whether err is a route's that could not start.
func IsRoute(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// Elsewhere reports whether a person can answer a set now through any
// route but the editor.
func (s *Set) Elsewhere() bool {
	for _, r := range s.running {
		if r.Where() != "" {
			return true
		}
	}
	return false
}

// Attended reports whether any route shows a set to a person now.
func (s *Set) Attended() bool {
	for _, r := range s.running {
		if r.Where() != "" || r.Showing() {
			return true
		}
	}
	return false
}

// Routes says where a set can be answered now besides the editor, or,
// when nowhere, what is missing, in the routes' own words. It is
// adapter.Options.Routes.
func (s *Set) Routes(bool) ([]string, string) {
	var where, missing []string
	for _, r := range s.running {
		if w := r.Where(); w != "" {
			where = append(where, w)
		} else if m := r.Missing(); m != "" {
			missing = append(missing, m)
		}
	}
	if len(where) > 0 {
		return where, ""
	}
	return nil, strings.Join(missing, "; ")
}

// Names are the started routes' names, in the table's order. A
// composition asks nothing else of a started route but Running: what a
// route needs of it, the route says in its Env (the hub's reporter hears
// where sets come from: Env.Hear).
func (s *Set) Names() []string { return slices.Clone(s.names) }

// Close closes the started routes, the last started first.
func (s *Set) Close() {
	for i := len(s.running) - 1; i >= 0; i-- {
		s.running[i].Close()
	}
	s.running, s.names = nil, nil
}

// Off is a route the flags turned off, which says only what turns it on.
func Off(missing string) Running { return off(missing) }

type off string

func (o off) Where() string   { return "" }
func (o off) Missing() string { return string(o) }
func (o off) Showing() bool   { return false }
func (o off) Close()          {}
