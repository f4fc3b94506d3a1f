package alarm

import (
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Kind is what was refused, as the log line and the summary say it.
type Kind string

// The kinds askbridge counts.
const (
	OtherUser Kind = "loopback connections of another user refused"
	WrongCode Kind = "pairing codes refused"
	Worker    Kind = "service workers the hub did not serve refused"
	HubPeer   Kind = "connections to the hub's socket refused (another user, or an agent's process)"
)

// Counter counts refusals by kind. The zero value is ready.
type Counter struct {
	mu    sync.Mutex
	kinds map[Kind]*tally
}

type tally struct {
	total   int
	pending int // since the last line
	last    time.Time
	logger  *slog.Logger // the latest note's, for a line written later
	attrs   []any        // the latest note's
	timer   *time.Timer  // the line of pending, due a second after last
}

// Note counts one refusal of kind. The first in a second is logged at
// once (on logger, with attrs, the count since the kind's last line);
// the others in that second go on one line when the second is up, so a
// flood writes one line a second, each saying how many.
func (c *Counter) Note(logger *slog.Logger, kind Kind, attrs ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kinds == nil {
		c.kinds = map[Kind]*tally{}
	}
	t := c.kinds[kind]
	if t == nil {
		t = &tally{}
		c.kinds[kind] = t
	}
	t.total++
	t.pending++
	t.logger, t.attrs = logger, attrs
	if wait := time.Second - time.Since(t.last); wait > 0 {
		if t.timer == nil {
			t.timer = time.AfterFunc(wait, func() { c.flush(kind) })
		}
		return
	}
	c.line(t, kind)
}

func (c *Counter) flush(kind Kind) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.kinds[kind]
	t.timer = nil
	if t.pending > 0 {
		c.line(t, kind)
	}
}

// line logs t's pending count; c.mu is held.
func (c *Counter) line(t *tally, kind Kind) {
	if t.logger != nil {
		t.logger.Warn(string(kind), append([]any{"count", t.pending, "total", t.total}, t.attrs...)...)
	}
	t.pending, t.last = 0, time.Now()
}

// Total is how many of kind were noted.
func (c *Counter) Total(kind Kind) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.kinds[kind]; t != nil {
		return t.total
	}
	return 0
}

// Summary is one line of what was refused ("" when nothing was), for the
// end of a run: "loopback connections of another user refused: 3,
// pairing codes refused: 12".
func (c *Counter) Summary() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parts []string
	for _, kind := range slices.Sorted(maps.Keys(c.kinds)) {
		parts = append(parts, fmt.Sprintf("%s: %d", kind, c.kinds[kind].total))
	}
	return strings.Join(parts, ", ")
}

// process counts the whole process's refusals: one hub, one page.
var process Counter

// Note is Counter.Note on the process's counter.
func Note(logger *slog.Logger, kind Kind, attrs ...any) { process.Note(logger, kind, attrs...) }

// Total is Counter.Total on the process's counter.
func Total(kind Kind) int { return process.Total(kind) }

// Summary is Counter.Summary on the process's counter.
func Summary() string { return process.Summary() }
