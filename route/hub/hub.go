package hub

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"github.com/askbridge/askbridge/internal/alarm"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
)

// Hub mirrors the sets of every askbridge connected on one board, which
// the desk serves; what is answered there goes back to the askbridge
// that asked.
type Hub struct {
	board  *permission.Board
	logger *slog.Logger
	seq    atomic.Int64

	mu      sync.Mutex
	peers   map[*peer]struct{}
	mirrors map[string]*mirror // hub set id -> its mirror
	store   *Store             // the history, when kept
	pairing *Pairing           // the device requests' (Pair)
	// decisions is the log of who decided what (Record), when kept.
	decisions *decisions.Log

	askbridges askbridges // the agents' trees' roots (peer.go)
	late       lateSets   // sets answerable late (late.go)
	refusedTLS sync.Map   // pids refused for no TLS: logged once each
}

// peer is a connected askbridge.
type peer struct {
	inst Instance // guarded by Hub.mu
	link *link
	sets map[string]*mirror // its set id -> mirror; guarded by Hub.mu
}

// mirror is an askbridge's set on the hub's board.
type mirror struct {
	peer    *peer
	remote  string // the set's id at the askbridge
	session string // its session there
	ticket  *permission.Ticket
	// there: the set ended at the askbridge (or the askbridge left), so
	// the hub's result is not sent back.
	there atomic.Bool
	// unkept: the set did not end, the hub stopped; the history does not
	// keep it (its askbridge sends it again to the next hub).
	unkept atomic.Bool
}

// New returns a hub putting the askbridges' sets on board.
func New(board *permission.Board, logger *slog.Logger) *Hub {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	h := &Hub{board: board, logger: logger, peers: map[*peer]struct{}{}, mirrors: map[string]*mirror{}}
	board.HandleModes(h.switchMode)
	return h
}

// Serve takes askbridges on ln until ctx ends (ln is closed then, before
// Serve returns) or ln is closed.
func (h *Hub) Serve(ctx context.Context, ln *Listener) error {
	go h.forwardHolds(ctx)
	closed := make(chan struct{})
	go func() {
		<-ctx.Done()
		ln.Close()
		close(closed)
	}()
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if ctx.Err() != nil {
				<-closed // the lock let go too: a next hub may start
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			h.logger.Warn("hub: accept", "err", err)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		cred, err := checkPeer(c)
		if err != nil {
			alarm.Note(h.logger, alarm.HubPeer, "err", err) // a flood is counted, a line a second
			c.Close()
			continue
		}
		go h.serveChecked(ctx, ln, c, cred)
	}
}

// serve is one connection: an askbridge, or a request about devices. The
// connection's id and its process (pid, from the kernel) are the hub's to
// say, never the peer's: the page groups sets by them, so no process can
// join another askbridge's group.
func (h *Hub) serve(ctx context.Context, c net.Conn, pid int) {
	p := &peer{link: newLink(ctx, c), sets: map[string]*mirror{}}
	p.inst = Instance{ID: "a" + strconv.FormatInt(h.seq.Add(1), 10), Connected: time.Now(), PeerPID: pid}
	h.mu.Lock()
	h.peers[p] = struct{}{}
	h.mu.Unlock()
	h.describe(p) // boardorigin.go
	p.link.read(h.lateFilter(p, func(m message) {
		switch {
		case m.Type == msgHello && m.Instance != nil:
			h.mu.Lock()
			id, at, pid := p.inst.ID, p.inst.Connected, p.inst.PeerPID
			p.inst = *m.Instance
			p.inst.ID, p.inst.Connected, p.inst.PeerPID = id, at, pid
			h.mu.Unlock()
			h.describe(p)
			h.logger.Info("hub: askbridge joined", "id", id, "agent", m.Instance.Agent, "pid", pid, "cwd", m.Instance.CWD)
		case m.Type == msgAsked && m.Set != nil:
			h.asked(p, *m.Set)
		case m.Type == msgEnded && m.Set != nil:
			h.ended(p, *m.Set)
		case m.Type == msgNoted && m.Set != nil:
			h.noted(p, *m.Set)
		case m.Type == msgPair || m.Type == msgDevices || m.Type == msgRevoke:
			p.link.send(h.device(c, pid, m))
		}
	}))
	h.leave(p, ctx.Err() != nil)
}

// asked puts a set on the board, once: an askbridge sends its pending
// sets again whenever it connects, and a set's next step as asked too.
func (h *Hub) asked(p *peer, set permission.Pending) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := p.sets[set.ID]; ok {
		return
	}
	req := permission.Request{SessionID: p.inst.ID + "/" + set.SessionID, ToolCallID: set.ToolCallID, Questions: set.Questions, Round: set.Round,
		Approval: set.Approval, // an approval stays one on the hub
		Context:  set.Context, From: p.inst.ID}
	if set.Deadline != nil {
		req.Deadline = *set.Deadline
	}
	m := &mirror{peer: p, remote: set.ID, session: set.SessionID, ticket: h.board.Open(req)}
	p.sets[set.ID] = m
	h.mirrors[m.ticket.ID] = m
	if set.Note != "" {
		h.board.Note(m.ticket.ID, set.Note) // told again after a reconnect
	}
	go h.answerBack(m)
}

// noted shows a set's note on the hub's card as its askbridge set it.
func (h *Hub) noted(p *peer, set permission.Pending) {
	h.mu.Lock()
	m, ok := p.sets[set.ID]
	h.mu.Unlock()
	if ok {
		h.board.Note(m.ticket.ID, set.Note)
	}
}

// answerBack sends the askbridge what the hub's page made of its set.
func (h *Hub) answerBack(m *mirror) {
	<-m.ticket.Done()
	h.keep(m)
	h.record(m)
	h.mu.Lock()
	delete(h.mirrors, m.ticket.ID) // ended: nothing holds or switches it any more
	h.mu.Unlock()
	if m.there.Load() {
		return
	}
	r := m.ticket.Result()
	m.peer.link.send(message{Type: msgAnswer, ID: m.remote, Result: &r})
}

// ended settles a set on the board as it ended at its askbridge.
func (h *Hub) ended(p *peer, set permission.Pending) {
	h.mu.Lock()
	m, ok := p.sets[set.ID]
	delete(p.sets, set.ID)
	h.mu.Unlock()
	if !ok {
		return
	}
	m.there.Store(true)
	r := permission.Result{Cancelled: true, Reason: "ended at the askbridge"}
	if set.Result != nil {
		r = *set.Result
	}
	// The askbridge's own end: its editor or terminal decided, or it
	// withdrew the set; the hub's socket took it for the user's process.
	by := permission.By{Route: permission.RouteAsker, Proof: permission.ProofPeer, Source: cmp.Or(r.Source, permission.SourceClient)}
	h.board.Settle(m.ticket.ID, r, by)
}

// leave cancels the sets of an askbridge that went away, but for those
// answerable late that the hub keeps (late.go). stopping: the hub itself
// stops, and its history keeps none of them (they did not end).
func (h *Hub) leave(p *peer, stopping bool) {
	h.mu.Lock()
	delete(h.peers, p)
	sets := p.sets
	p.sets = map[string]*mirror{}
	h.mu.Unlock()
	h.board.Forget(p.inst.ID) // its sets keep where they came from, the history too
	kept := 0
	for _, m := range sets {
		if !stopping && h.keepLate(m) {
			kept++
			continue
		}
		m.there.Store(true)
		m.unkept.Store(stopping)
		h.board.Withdraw(m.ticket.ID, "the askbridge left the hub", permission.BySelf(permission.SourceHub))
	}
	level := slog.LevelInfo
	if p.inst.PID == 0 {
		level = slog.LevelDebug // no hello: a probe, such as a second hub's
	}
	h.logger.Log(context.Background(), level, "hub: askbridge left", "id", p.inst.ID, "pending", len(sets), "kept", kept)
}

// forwardHolds tells an askbridge when its set is held at the hub's page,
// so that its deadline moves too.
func (h *Hub) forwardHolds(ctx context.Context) {
	for ev := range h.board.Subscribe(ctx) {
		if ev.Type != permission.EventHeld || ev.Pending.Deadline == nil {
			continue
		}
		h.mu.Lock()
		m := h.mirrors[ev.Pending.ID]
		h.mu.Unlock()
		if m != nil && !m.there.Load() {
			m.peer.link.send(message{Type: msgHold, ID: m.remote, Until: ev.Pending.Deadline})
		}
	}
}

// Instances are the askbridges connected, first come first.
func (h *Hub) Instances() []Instance {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []Instance{}
	for p := range h.peers {
		inst := p.inst
		inst.Pending = len(p.sets)
		out = append(out, inst)
	}
	slices.SortFunc(out, func(a, b Instance) int { return a.Connected.Compare(b.Connected) })
	return out
}

// ServeInstances is GET /instance: the askbridges connected.
func (h *Hub) ServeInstances(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(h.Instances())
}
