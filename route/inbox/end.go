package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// skipAgain is how long a set skipped in --watch rests before the inbox
// offers it again: after the sets nobody skipped, never in a loop.
var skipAgain = time.Minute

// next is the set to ask now: the first nobody skipped, else, with watch,
// the first skipped at least skipAgain ago.
func (ib *inbox) next(sets []Set, watch bool) (Set, bool) {
	var again *Set
	for i, s := range sets {
		if len(s.Questions) == 0 || ib.told[s.ID] {
			continue
		}
		at, skipped := ib.skipped[s.ID]
		if !skipped {
			return s, true
		}
		if watch && again == nil && time.Since(at) >= skipAgain {
			again = &sets[i]
		}
	}
	if again == nil {
		return Set{}, false
	}
	delete(ib.skipped, again.ID)
	return *again, true
}

// skippedLine is what a skip says: the set keeps waiting, and when --watch
// offers it again.
func (ib *inbox) skippedLine() string {
	if ib.watch {
		return fmt.Sprintf("Skipped; it keeps waiting, and comes back here in %s if nobody answers it.", skipAgain.Round(time.Second))
	}
	return "Skipped; it keeps waiting for an answer."
}

// ended says how set s, no longer waiting at its step, ended: the hub's
// history tells answered from cancelled and where, its decisions log on
// which device; a set the history does not know left with its askbridge
// or a hub restart, and if it is sent again it is asked again.
func (ib *inbox) ended(ctx context.Context, s Set) string {
	raw, _, err := ib.c.do(ctx, "GET", "/api/session/"+url.PathEscape(s.SessionID)+"/history", nil)
	var h struct {
		Rounds []struct {
			ID     string            `json:"id"`
			State  permission.State  `json:"state"`
			Source permission.Source `json:"source"`
		} `json:"rounds"`
	}
	if err == nil && json.Unmarshal(raw, &h) == nil {
		for _, r := range h.Rounds {
			if r.ID == s.ID {
				return endedLine(r.State, r.Source, ib.decidedOn(ctx, s.ID))
			}
		}
	}
	return "It is no longer waiting at the hub (its agent went away, or the hub restarted); if it is sent again, it is asked again here."
}

// decidedOn is the device that ended set id as the hub's decisions log
// names it ("iPhone"), or "" when the log does not say.
func (ib *inbox) decidedOn(ctx context.Context, id string) string {
	raw, _, err := ib.c.do(ctx, "GET", "/api/decisions?limit=20", nil)
	var recs []struct{ Set, Device string }
	if err != nil || json.Unmarshal(raw, &recs) != nil {
		return ""
	}
	for _, r := range recs {
		if r.Set == id {
			return r.Device
		}
	}
	return ""
}

// endedLine says how a set ended, where (permission.Sources' words) and
// on which device.
func endedLine(state permission.State, source permission.Source, device string) string {
	where := source.Where()
	if source == permission.SourceInbox {
		where = "in another terminal inbox"
	}
	if where != "" {
		where = " " + where
	}
	if device != "" && device != "the terminal inbox" {
		where += " (" + device + ")"
	}
	switch state {
	case permission.StateAnswered:
		return "Answered elsewhere" + where + "."
	case permission.StateCancelled:
		return "Cancelled elsewhere" + where + "; the agent was told."
	case permission.StateTimeout:
		return "It timed out; the agent went on without an answer."
	case permission.StatePending:
		return "Answered elsewhere; its next questions follow."
	}
	return "It ended elsewhere (" + string(state) + ")."
}

// sentLine says the hub took the answer to s, and for whom.
func sentLine(s Set, home string) string {
	if o := s.origin(home); o != "" {
		return "✔ Sent to " + o + "."
	}
	return "✔ Sent."
}
