//go:build unix

package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/hub"
)

// cell is one cell's askbridge: the bridge between a scripted client and
// a scripted agent, its board, and where the route answers.
type cell struct {
	h      *bridgeHarness
	d      matrixDialect
	board  *permission.Board
	api    *deskAPI // the desk, the hub's page or the inbox: the board's answer API
	taps   *answertoken.Key
	socket string               // the ask socket, for a dialect that asks through it
	got    chan json.RawMessage // the agent's answer, where it is no reply
}

// ask has the agent ask k's set, and answers what the client must answer
// first.
func (c *cell) ask(t *testing.T, k kind) {
	if c.d.send != nil {
		c.d.send(t, c, k)
	} else {
		c.h.Agent.Send(c.d.ask(k))
	}
	if c.d.preface != nil {
		c.d.preface(t, c)
	}
}

// reply is the agent's answer.
func (c *cell) reply(t *testing.T) json.RawMessage {
	if c.d.receive != nil {
		return c.d.receive(t, c)
	}
	return c.h.AgentReply(t, `"mx"`).Result
}

func newCell(t *testing.T, d matrixDialect, r matrixRoute, k kind) *cell {
	c := &cell{d: d, board: permission.NewBoard()}
	opts := Options{Advertise: true, Board: c.board, Render: r.render}
	if k.timeout {
		opts.QuestionTimeout, opts.OnTimeout = 100*time.Millisecond, TimeoutEnd
	}
	if r.setup != nil {
		opts.Attended = func() bool { return true } // as with --desk or a hub
	}
	if d.options != nil {
		d.options(t, c, &opts)
	}
	opts.Limits = permission.DefaultLimits()
	b := NewBridge(opts)
	if d.socket {
		_, err := b.Listen()
		require.NoError(t, err)
		c.socket = b.socket.Path()
		t.Cleanup(b.Close)
	}
	c.h = wrapBridge(t, b)
	caps := `{}`
	if r.forms {
		caps = `{"elicitation":{"form":{}}}`
	}
	c.h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":` + caps + `,"clientInfo":{"name":"matrix","version":"1"}}}`)
	c.h.Agent.Recv()
	c.h.OpenSession(t, "s1")
	if r.setup != nil {
		r.setup(t, c)
	}
	return c
}

// serveDesk starts the desk's server on board and returns its API, paired.
func serveDesk(t *testing.T, board *permission.Board, opts desk.Options) (*desk.Server, *deskAPI) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := desk.New(ln, board, opts)
	t.Cleanup(func() { srv.Close() })
	api := &deskAPI{base: "http://" + ln.Addr().String() + "/"}
	code, _ := srv.Devices().NewCode()
	api.pair(t, code)
	return srv, api
}

// answerAtDesk answers the set pending at api as a person at the page:
// the picks and the typed text as the page sends them, step by step for
// follow-ups, or the set rejected.
func answerAtDesk(t *testing.T, c *cell, k kind) {
	if k.timeout {
		return
	}
	id := c.api.waitSet(t)
	if k.dismiss {
		c.api.call(t, "POST", "question/"+id+"/reject", nil, nil)
		return
	}
	for step, w := range k.answers {
		c.api.waitStep(t, id, step)
		vals := append([]string(nil), w.Labels...)
		if w.Typed != "" {
			vals = append(vals, w.Typed)
		}
		c.api.call(t, "POST", "question/"+id+"/reply", map[string]any{"answers": [][]string{vals}, "step": step}, nil)
	}
}

// deskCannot: the page takes picks and typed text, never Other alone.
func deskCannot(_ matrixDialect, k kind) string {
	if slices.ContainsFunc(k.answers, func(w want) bool { return w.Other && w.Typed == "" }) {
		return "the page has no Other without text: an empty answer is refused"
	}
	return ""
}

// checkDeskCannot shows the page refusing an empty answer.
func checkDeskCannot(t *testing.T, d matrixDialect, k kind) {
	c := newCell(t, d, deskRoute(), k)
	c.ask(t, k)
	id := c.api.waitSet(t)
	code := c.api.try(t, "POST", "question/"+id+"/reply", map[string]any{"answers": [][]string{{""}}, "step": 0})
	assert.Equal(t, http.StatusBadRequest, code, "an empty answer is refused")
	c.api.call(t, "POST", "question/"+id+"/reject", nil, nil)
}

func deskRoute() matrixRoute {
	return matrixRoute{name: "desk", setup: func(t *testing.T, c *cell) {
		_, c.api = serveDesk(t, c.board, desk.Options{})
	}, answer: answerAtDesk, cannot: deskCannot, check: checkDeskCannot}
}

// startHub runs a hub on a socket of its own, the cell's board reporting
// to it, and its page's server on the hub's board.
func startHub(t *testing.T, c *cell) (*hub.Hub, *hub.Listener, *desk.Server) {
	dir, err := os.MkdirTemp("", "abmx") // short: a socket's path is bounded
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "askbridge", "hub.sock")
	ln, err := hub.Listen(sock)
	require.NoError(t, err)
	hubBoard := permission.NewBoard()
	h := hub.New(hubBoard, nil)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { h.Serve(ctx, ln); close(served) }()
	// Not this process's pid: the inbox refuses a caller inside an
	// askbridge's process tree, and the test is the caller.
	hub.Report(ctx, c.board, sock, hub.Instance{Agent: "matrix", PID: 1 << 22, CWD: "/tmp/p"}, nil)
	page, api := serveDesk(t, hubBoard, desk.Options{})
	c.api = api
	t.Cleanup(func() { stop(); <-served })
	return h, ln, page
}

func hubRoute() matrixRoute {
	return matrixRoute{name: "hub", setup: func(t *testing.T, c *cell) { startHub(t, c) },
		answer: answerAtDesk, cannot: deskCannot,
		check: func(t *testing.T, d matrixDialect, k kind) {
			c := newCell(t, d, hubRoute(), k)
			c.ask(t, k)
			id := c.api.waitSet(t)
			assert.Equal(t, http.StatusBadRequest, c.api.try(t, "POST", "question/"+id+"/reply", map[string]any{"answers": [][]string{{""}}, "step": 0}))
		}}
}

// inboxRoute: `askbridge inbox`, the hub's terminal inbox: the page's API
// with no session (desk.LocalHandler), over a Unix socket. The hub's own
// ServeInbox puts a check of the caller in front of it that this test
// cannot pass: its process is the askbridge reporting to the hub, and the
// inbox refuses a caller inside an askbridge's tree (inbox_linux_test.go
// covers that check).
func inboxRoute() matrixRoute {
	return matrixRoute{name: "terminal inbox", setup: func(t *testing.T, c *cell) {
		_, _, page := startHub(t, c)
		dir, err := os.MkdirTemp("", "abin")
		require.NoError(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		path := filepath.Join(dir, "inbox.sock")
		ln, err := net.Listen("unix", path)
		require.NoError(t, err)
		srv := &http.Server{Handler: page.LocalHandler()}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		c.api = unixAPI(path)
	}, answer: answerAtDesk, cannot: deskCannot,
		check: func(t *testing.T, d matrixDialect, k kind) {
			c := newCell(t, d, inboxRoute(), k)
			c.ask(t, k)
			id := c.api.waitSet(t)
			assert.Equal(t, http.StatusBadRequest, c.api.try(t, "POST", "question/"+id+"/reply", map[string]any{"answers": [][]string{{""}}, "step": 0}))
		}}
}

// tapRoute: a notification's answer button, one option of a one-question
// set at its first step, through the desk's POST /tap/{token}.
func tapRoute() matrixRoute {
	return matrixRoute{name: "notification button", setup: func(t *testing.T, c *cell) {
		c.taps = answertoken.New()
		_, c.api = serveDesk(t, c.board, desk.Options{Taps: c.taps})
	}, answer: func(t *testing.T, c *cell, k kind) {
		if k.timeout {
			return
		}
		id := c.api.waitSet(t)
		option := slices.IndexFunc(k.question().Options, func(o permission.Option) bool { return o.Label == k.answers[0].Labels[0] })
		c.api.call(t, "POST", "tap/"+c.taps.Mint(id, option), nil, nil)
	}, cannot: func(_ matrixDialect, k kind) string {
		switch {
		case k.dismiss:
			return "a notification has a button per option and none that dismisses"
		case k.multi && len(k.answers[0].Labels) > 1:
			return "a notification button is one option: several picks are the page's"
		case slices.ContainsFunc(k.answers, func(w want) bool { return w.Other }):
			return "a notification button cannot carry typed text or Other"
		case k.followUp:
			return "a notification button answers a set's first step only: its follow-ups are the page's"
		}
		return ""
	}, check: checkTapCannot}
}

// checkTapCannot shows what a button can do: a token names one option of
// the set's first step, and a set at its follow-ups refuses it.
func checkTapCannot(t *testing.T, d matrixDialect, k kind) {
	c := newCell(t, d, tapRoute(), k)
	c.ask(t, k)
	id := c.api.waitSet(t)
	if k.followUp {
		c.api.call(t, "POST", "tap/"+c.taps.Mint(id, 1), nil, nil) // SQLite: the follow-up comes
		c.api.waitStep(t, id, 1)
		assert.Equal(t, http.StatusConflict, c.api.try(t, "POST", "tap/"+c.taps.Mint(id, 0), nil), "a button does not answer a follow-up")
		return
	}
	assert.Equal(t, http.StatusConflict, c.api.try(t, "POST", "tap/"+c.taps.Mint(id, len(k.question().Options)), nil), "no button beyond the options (no Other, no dismiss)")
	p, ok := c.board.Get(id)
	require.True(t, ok)
	assert.Equal(t, permission.StatePending, p.State, fmt.Sprintf("still pending: %s", p.State))
}
