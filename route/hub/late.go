package hub

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/notes"
	"github.com/askbridge/askbridge/permission"
)

// Late answers outlive their askbridge. A set whose agent stopped waiting
// for it stays answerable, its answer for the session's next prompt (its
// note says so: notes.AnswerableLate). When its askbridge leaves — stops
// and says so (the set ends noted notes.CardLeft), or just goes (killed,
// its link dropped) — the hub keeps the card instead of cancelling it, and
// an answer given there is put in the notes store, where whichever
// askbridge next serves the session takes it for that session's next
// prompt, as the late answer the asking askbridge would have written. Only
// an askbridge on the hub's own machine shares its store, and a secret
// answer is never written, so the card of any other is cancelled as before.

// lateSets are the hub's sets answerable late.
type lateSets struct {
	mu     sync.Mutex
	store  *notes.Store
	host   string              // the hub's machine: an askbridge here shares its store
	marked map[*mirror]lateSet // connected askbridges' sets answerable late
	left   map[string]*leftSet // by lateKey: sets kept after their askbridge left
}

// lateSet is what the hub needs to write a set's late answer as its
// askbridge would, and to know the set again if that one comes back.
type lateSet struct {
	key   string
	asked time.Time // at the askbridge: the time the model reads
}

// leftSet is a card kept after its askbridge left.
type leftSet struct {
	ticket string
	at     time.Time
}

// maxLeft bounds the cards remembered as kept after their askbridge left.
const maxLeft = 1024

// NotesDir is the folder of askbridge's notes for the next prompt, beside
// the hub's history: the askbridges' and the hub's alike.
func NotesDir() (string, error) {
	p, err := HistoryPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(p), "notes"), nil
}

// OpenNotes opens the store in NotesDir.
func OpenNotes() (*notes.Store, error) {
	dir, err := NotesDir()
	if err != nil {
		return nil, err
	}
	return notes.Open(dir, notes.Limits{})
}

// KeepLate gives the hub the notes store the askbridges of its machine
// read: without one, a set answerable late is cancelled when its
// askbridge leaves, as any other. Call before Serve.
func (h *Hub) KeepLate(s *notes.Store) {
	host, _ := os.Hostname()
	h.late.mu.Lock()
	defer h.late.mu.Unlock()
	h.late.store, h.late.host = s, host
}

// lateKey names an askbridge's set across its connections: its machine,
// process, id there and when it was asked (a pid is reused, not with
// the same set asked at the same instant).
func lateKey(inst Instance, set permission.Pending) string {
	return inst.Host + "\x00" + strconv.Itoa(inst.PID) + "\x00" + set.ID + "\x00" + set.Asked.UTC().Format(time.RFC3339Nano)
}

// lateFilter sees an askbridge's messages before they are handled (next):
// it learns which sets are answerable late, keeps a set its askbridge
// hands over as it stops, and knows a set again that comes back.
func (h *Hub) lateFilter(p *peer, next func(message)) func(message) {
	return func(m message) {
		if m.Set == nil {
			next(m)
			return
		}
		switch m.Type {
		case msgAsked:
			if h.cameBack(p, *m.Set) {
				return
			}
			next(m)
			h.markLate(p, *m.Set)
		case msgNoted:
			next(m)
			h.markLate(p, *m.Set)
		case msgEnded:
			if m.Set.Note == notes.CardLeft && h.handOver(p, m.Set.ID) {
				return
			}
			h.mu.Lock()
			mr := p.sets[m.Set.ID]
			h.mu.Unlock()
			next(m)
			h.late.mu.Lock()
			delete(h.late.marked, mr)
			h.late.mu.Unlock()
		default:
			next(m)
		}
	}
}

// markLate remembers whether set is answerable late, as its note says.
func (h *Hub) markLate(p *peer, set permission.Pending) {
	h.mu.Lock()
	m, inst := p.sets[set.ID], p.inst
	h.mu.Unlock()
	if m == nil || set.Note == notes.CardLeft {
		return
	}
	l := &h.late
	l.mu.Lock()
	defer l.mu.Unlock()
	if !notes.AnswerableLate(set.Note) {
		delete(l.marked, m)
		return
	}
	if l.marked == nil {
		l.marked = map[*mirror]lateSet{}
	}
	l.marked[m] = lateSet{key: lateKey(inst, set), asked: set.Asked}
}

// handOver keeps set id of p, which its askbridge ended as it stops,
// left to the hub; false when the hub cannot keep it (then it ends here
// as there).
func (h *Hub) handOver(p *peer, id string) bool {
	h.mu.Lock()
	m := p.sets[id]
	h.mu.Unlock()
	if m == nil || !h.keepLate(m) {
		return false
	}
	h.mu.Lock()
	delete(p.sets, id)
	h.mu.Unlock()
	return true
}

// keepLate keeps m's card after its askbridge left, when it is answerable
// late and its answer can reach the session's next prompt, and reports
// whether it did.
func (h *Hub) keepLate(m *mirror) bool {
	h.mu.Lock()
	inst := m.peer.inst
	h.mu.Unlock()
	p, _ := h.board.Get(m.ticket.ID)
	secret := slices.ContainsFunc(p.Questions, func(q permission.Question) bool { return q.Kind.Secret })
	l := &h.late
	l.mu.Lock()
	info, marked := l.marked[m]
	delete(l.marked, m)
	store := l.store
	keep := marked && store != nil && inst.Host != "" && inst.Host == l.host && !secret
	if keep {
		l.remember(info.key, m.ticket.ID)
	}
	l.mu.Unlock()
	if !keep {
		return false
	}
	m.there.Store(true)
	h.board.Note(m.ticket.ID, notes.CardLeft)
	h.logger.Info("hub: a set answerable late stays after its askbridge left; its answer goes to the session's next prompt",
		"id", m.ticket.ID, "askbridge", inst.ID)
	go h.deliverLate(m, info, store)
	return true
}

// remember adds a card kept after its askbridge left, within maxLeft and
// the notes' lifetime; l.mu is held.
func (l *lateSets) remember(key, ticket string) {
	if l.left == nil {
		l.left = map[string]*leftSet{}
	}
	now := time.Now()
	for k, s := range l.left {
		if now.Sub(s.at) > notes.DefaultLimits.TTL {
			delete(l.left, k)
		}
	}
	for len(l.left) >= maxLeft {
		var oldest string
		for k, s := range l.left {
			if oldest == "" || s.at.Before(l.left[oldest].at) {
				oldest = k
			}
		}
		delete(l.left, oldest)
	}
	l.left[key] = &leftSet{ticket: ticket, at: now}
}

// cameBack handles a set an askbridge reports again after a dropped link
// (it did not stop), whose card the hub kept: that card gives way to the
// one the set now opens, unless it was answered meanwhile — then the
// askbridge's set ends (the answer is in the store, for the next prompt)
// and true says no card opens.
func (h *Hub) cameBack(p *peer, set permission.Pending) bool {
	h.mu.Lock()
	key := lateKey(p.inst, set)
	h.mu.Unlock()
	l := &h.late
	l.mu.Lock()
	s := l.left[key]
	delete(l.left, key)
	l.mu.Unlock()
	if s == nil || h.board.Withdraw(s.ticket, "its askbridge came back: the set shows again", permission.BySelf(permission.SourceHub)) == nil {
		return false
	}
	if got, _ := h.board.Get(s.ticket); got.Result == nil || got.Result.Cancelled {
		return false
	}
	r := permission.Result{Cancelled: true, Source: permission.SourceHub, Reason: "answered at the hub while the askbridge was away; the answer goes with the session's next prompt"}
	p.link.send(message{Type: msgAnswer, ID: set.ID, Result: &r})
	return true
}

// deliverLate waits for an answer to m's card, kept after its askbridge
// left, until its deadline (else the notes' lifetime), and puts it in the
// store as the late answer the askbridge would have kept.
func (h *Hub) deliverLate(m *mirror, info lateSet, store *notes.Store) {
	t := m.ticket
	for {
		end := t.Deadline()
		if end.IsZero() {
			end = info.asked.Add(notes.DefaultLimits.TTL)
		}
		timer := time.NewTimer(time.Until(end))
		select {
		case <-t.Done():
			timer.Stop()
		case <-timer.C:
			if t.Deadline().After(time.Now()) {
				continue // held at the page meanwhile
			}
			h.board.Withdraw(t.ID, "nobody answered before its deadline after its askbridge left", permission.BySelf(permission.SourceTimeout))
		}
		break
	}
	<-t.Done()
	r := t.Result()
	if r.Cancelled || r.Source == permission.SourceTimeout {
		return
	}
	if len(r.Secrets()) > 0 {
		h.logger.Warn("hub: a late answer with a secret is not written; it does not reach the agent", "id", t.ID)
		return
	}
	_, err := store.Put(m.session, notes.Note{Kind: notes.KindLate, Text: notes.LateLine(info.asked, r.ModelText())})
	if err != nil {
		h.logger.Warn("hub: a late answer could not be kept for the session's next prompt", "id", t.ID, "err", err)
		return
	}
	h.logger.Info("hub: a late answer waits for the session's next prompt", "id", t.ID)
}
