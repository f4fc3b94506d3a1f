package cardcontext

import (
	"bytes"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Every agent_message_chunk passes here, at the relay's full rate: the hook
// only finds the session with a byte search and keeps the raw line in the
// session's ring, never decoding it. The line is lent: it stays in the
// relay's read buffer until the relay reads on (relay.BeforeAgentRead),
// and only the lines still in the ring then are copied (into the memory of
// lines dropped), so a burst longer than the ring copies its end alone.
// The ring is decoded when a set is asked (Of), which is rare.

// MaxWords is how much of the agent's last words a card carries, in
// characters: a screen of text on a phone.
const MaxWords = 2000

// Each session's ring keeps at most ringLines raw chunk lines and, past one
// line, at most ringBytes of them: tiny chunks (a few tokens each, as
// Claude streams them) and large ones alike hold more than MaxWords.
const (
	ringLines = 256
	ringBytes = 32 << 10
	// maxSessions bounds the sessions followed: a long-lived askbridge
	// whose agent opens session after session forgets the oldest.
	maxSessions = 64
)

// sessionMark is searched from its capital: a byte rare in a line's
// start, where a search from a quote would stop at every member.
var sessionMark = []byte(`"sessionId":"`)

// Sessions are the sessions' rings and latest plans, and the secret texts
// typed so far, which no card carries. The zero value follows nothing
// until Follow.
type Sessions struct {
	mu      sync.Mutex
	by      map[string]*words
	order   []string // sessions, first followed first (maxSessions)
	secrets []string
	// last is the session the latest chunk was of, and its words: the
	// chunks of one turn come in a row, and need no map lookup.
	last      string
	lastWords *words
	// lenders are the sessions whose rings hold lent lines.
	lenders []*words
}

// words is one session's recent message lines: the message that ended
// with the latest tool call (the first cut lines), and the words since.
type words struct {
	lines [][]byte // a ring: start, n
	start int
	n     int
	bytes int
	// lent is how many of the newest lines are the relay's, not copied
	// yet; free is the memory of lines dropped, for lines copied.
	lent int
	free [][]byte
	// cut is how many of the ring's lines came before the latest tool
	// call, and calls are the tool calls made there (at most maxCalls):
	// a set asked for one of them carries the words before the cut, not
	// those that came after (a notice the agent writes while it asks).
	cut   int
	calls []string
	plan  []byte // the latest plan update, raw
}

// maxCalls bounds the tool calls remembered at one cut: calls made
// together, with no words between them.
const maxCalls = 16

// Follow follows, on r, the agent's words and plan, and the prompts that
// end a message.
func (c *Sessions) Follow(r *relay.Relay) {
	r.FromAgentUpdates(c.onUpdate, "agent_message_chunk", "plan", "tool_call")
	r.BeforeAgentRead(c.keep)
	r.FromClient(acp.AgentMethodSessionPrompt, func(m *relay.Message) relay.Verdict {
		if s, ok := relay.StringField(m.Raw, "params", "sessionId"); ok {
			c.prompted(s)
		}
		return relay.Pass
	})
}

func (c *Sessions) onUpdate(m *relay.Message) relay.Verdict {
	raw := m.Raw
	switch string(m.UpdateKind()) {
	case "agent_message_chunk":
		if s, ok := sessionOfUpdate(m); ok {
			c.add(s, raw)
		}
	case "plan":
		if s, ok := sessionOfUpdate(m); ok {
			c.setPlan(s, raw)
		}
	case "tool_call":
		if s, ok := sessionOfUpdate(m); ok {
			call, _ := relay.StringField(raw, "params", "update", "toolCallId")
			c.called(s, call)
		}
	}
	return relay.Pass
}

// sessionOfUpdate is m's session: read with its kind where the line
// starts as the agents write it, else found in the line.
func sessionOfUpdate(m *relay.Message) ([]byte, bool) {
	if s := m.UpdateSession(); s != nil {
		return s, true
	}
	return sessionOf(m.Raw)
}

// sessionOf finds params.sessionId with a byte search (a JSON string's
// own quotes are escaped inside another string, so the mark is not found
// in text), else, spaced or escaped, with the relay's scan. The bytes are
// raw's own: a map looked up with them allocates nothing.
func sessionOf(raw []byte) ([]byte, bool) {
	if rest, ok := after(raw, sessionMark, len(`"session`)); ok {
		if j := bytes.IndexByte(rest, '"'); j >= 0 && bytes.IndexByte(rest[:j], '\\') < 0 {
			return rest[:j], true
		}
	}
	s, ok := relay.StringField(raw, "params", "sessionId")
	return []byte(s), ok
}

// after is what follows the first mark in raw, searched from its byte at
// from and checked whole.
func after(raw, mark []byte, from int) ([]byte, bool) {
	for off := 0; ; {
		i := bytes.Index(raw[off:], mark[from:])
		if i < 0 {
			return nil, false
		}
		i += off
		if i >= from && bytes.Equal(raw[i-from:i], mark[:from]) {
			return raw[i+len(mark)-from:], true
		}
		off = i + 1
	}
}

// session is s's words, followed from now on when new; c is held.
func (c *Sessions) session(id []byte) *words {
	if c.lastWords != nil && string(id) == c.last {
		return c.lastWords
	}
	w := c.by[string(id)]
	if w == nil {
		s := string(id)
		if c.by == nil {
			c.by = map[string]*words{}
		}
		if len(c.order) >= maxSessions {
			delete(c.by, c.order[0])
			c.order = c.order[1:]
		}
		w = &words{lines: make([][]byte, ringLines)}
		c.by[s] = w
		c.order = append(c.order, s)
	}
	c.last, c.lastWords = string(id), w // a new string only when the session changes
	return w
}

// add keeps a chunk line in s's ring, lent (see keep).
func (c *Sessions) add(s, raw []byte) {
	c.mu.Lock()
	w := c.session(s)
	for w.n > 0 && (w.n == ringLines || w.bytes+len(raw) > ringBytes) {
		w.dropOldest()
		w.cut = max(w.cut-1, 0)
	}
	w.lines[(w.start+w.n)%ringLines] = raw
	w.n++
	w.bytes += len(raw)
	if w.lent++; w.lent == 1 {
		c.lenders = append(c.lenders, w)
	}
	c.mu.Unlock() // not deferred: the relay calls this for every chunk
}

// dropOldest forgets the ring's oldest line, keeping its memory where it
// was a copy (one huge line once does not stay pinned).
func (w *words) dropOldest() {
	old := w.lines[w.start]
	if w.n > w.lent {
		if len(w.free) < ringLines && cap(old) <= 4*ringBytes {
			w.free = append(w.free, old)
		}
	} else {
		w.lent--
	}
	w.lines[w.start] = nil
	w.bytes -= len(old)
	w.start = (w.start + 1) % ringLines
	w.n--
}

// keep copies the lent lines still in the rings, before the relay reads
// into the buffer they are in: the same few buffers cycle, warm in the
// cache. It runs on the relay's reading goroutine, as add does, so
// lenders is read without the lock when there is nothing to copy.
func (c *Sessions) keep() {
	if len(c.lenders) == 0 {
		return
	}
	c.mu.Lock()
	for _, w := range c.lenders {
		for k := w.n - w.lent; k < w.n; k++ {
			i := (w.start + k) % ringLines
			var buf []byte
			if f := len(w.free); f > 0 {
				buf, w.free = w.free[f-1], w.free[:f-1]
			}
			w.lines[i] = append(buf[:0], w.lines[i]...)
		}
		w.lent = 0
	}
	clear(c.lenders)
	c.lenders = c.lenders[:0]
	c.mu.Unlock()
}

// called says s's agent made a tool call: when words came since the last
// one, they are the message this call ends, and the message before is
// forgotten; calls made together share one cut.
func (c *Sessions) called(s []byte, call string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.session(s)
	if w.n > w.cut {
		for range w.cut {
			w.dropOldest()
		}
		w.cut, w.calls = w.n, w.calls[:0]
	}
	if call != "" && len(w.calls) < maxCalls {
		w.calls = append(w.calls, call)
	}
}

// prompted says the user prompted s: the words before answered an earlier
// turn, and are forgotten.
func (c *Sessions) prompted(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w := c.by[s]; w != nil {
		for w.n > 0 {
			w.dropOldest()
		}
		w.cut, w.calls = 0, w.calls[:0]
	}
}

func (c *Sessions) setPlan(s, raw []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := c.session(s)
	w.plan = append(w.plan[:0], raw...)
}

// Conceal keeps texts, typed for secret questions, out of every card from
// now on, as out of the recording (package record).
func (c *Sessions) Conceal(texts ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range texts {
		if t != "" && t != permission.SecretText {
			c.secrets = append(c.secrets, t)
			if typed, err := permission.Typed(t); err == nil && typed != t {
				c.secrets = append(c.secrets, typed)
			}
		}
	}
}
