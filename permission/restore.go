package permission

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxRestored bounds the ids and rounds Restore takes back, and other
// counters restored from a file (the hub's instance ids): far below
// int64's end, so that no history line, however crafted, brings the ids
// that follow it near overflow, and far beyond any real history (a set a
// second for 30,000 years).
const MaxRestored = 1 << 40

// Restore puts a set that ended before back into the board's history, as
// it was shown (secret answers already the placeholder): the hub keeps its
// history across a restart this way. The set is finished: it is listed in
// its session's history, never pending, never answered again. Its id is
// kept, and sets opened later get ids after it.
func (b *Board) Restore(p Pending) error {
	if p.State == StatePending || p.State == "" {
		return errors.New("restore: only a set that ended can be restored")
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(p.ID, "q"), 10, 64)
	if err != nil || !strings.HasPrefix(p.ID, "q") || n <= 0 || n > MaxRestored {
		return fmt.Errorf("restore: %.40q is not a set id of a board", p.ID)
	}
	if p.Round < 0 || p.Round > MaxRestored {
		return fmt.Errorf("restore: set %s has round %d, beyond any board's", p.ID, p.Round)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	t := &Ticket{ID: p.ID, seq: n, board: b, ctx: ctx, cancel: cancel, p: p, answered: p.Answered, result: p.Result}
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, dup := b.tickets[p.ID]; dup {
		return fmt.Errorf("restore: the board has a set %s already", p.ID)
	}
	for cur := b.seq.Load(); cur < n && !b.seq.CompareAndSwap(cur, n); cur = b.seq.Load() {
	}
	b.tickets[p.ID] = t
	ts := append(b.history[p.SessionID], t)
	slices.SortStableFunc(ts, func(x, y *Ticket) int { return cmp.Compare(x.seq, y.seq) })
	b.history[p.SessionID] = ts
	if p.Round > b.rounds[p.SessionID] {
		b.rounds[p.SessionID] = p.Round
	}
	return nil
}
