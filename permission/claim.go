package permission

import (
	"errors"
	"fmt"
	"time"
)

// A claim says a set is being answered on one device: opening a card to
// answer claims it for a short lease, renewed while the user works on it.
// While it lasts, an answer or a reject by another device (a route of
// door.go's claimable) is refused (ErrClaimed), so two devices cannot both
// believe they answered; another device may take the claim over,
// explicitly (Claim with takeover). The editor's own answer, askbridge's
// deadline and the hub's answer (which keeps claims of its own) end the
// set at any time.

// holdSlack is the least a claim moves a deadline by.
const holdSlack = 5 * time.Second

// ErrClaimed is the error of an answer or a claim refused because another
// device claims the set; the error itself is a *ClaimedError.
var ErrClaimed = errors.New("question is being answered on another device")

// Claim is who is answering a set, until when.
type Claim struct {
	Device string    `json:"device"` // the device's id
	Name   string    `json:"name"`   // its name, to show
	Until  time.Time `json:"until"`
}

// live says whether c is a claim not yet expired.
func (c *Claim) live() bool { return c != nil && time.Now().Before(c.Until) }

// Live is c when it holds now, else nil.
func (c *Claim) Live() *Claim {
	if !c.live() {
		return nil
	}
	return c
}

// ClaimedError says which device has the set.
type ClaimedError struct{ Claim Claim }

func (e *ClaimedError) Error() string {
	return fmt.Sprintf("question is being answered on %s: take it over to answer it here", e.Claim.Name)
}

// Is makes errors.Is(err, ErrClaimed) hold.
func (e *ClaimedError) Is(target error) bool { return target == ErrClaimed }

// Claim claims pending set id for by's device for lease from now, or
// renews its claim; with takeover it takes the set from another device
// that claims it, else that is refused with a *ClaimedError. A set that
// can time out is held for the lease too (Hold). It returns the set.
func (b *Board) Claim(id string, by By, lease time.Duration, takeover bool) (Pending, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	t, err := b.pending(id)
	if err != nil {
		return Pending{}, err
	}
	old := t.p.Claim
	if old.live() && old.Device != by.Device && !takeover {
		return t.p, &ClaimedError{Claim: *old}
	}
	now := time.Now()
	t.p.Claim = &Claim{Device: by.Device, Name: by.Name, Until: now.Add(lease)}
	if t.p.Deadline != nil {
		// A renewal that would move it by less than holdSlack does not, so
		// a page renewing in a loop does not flood the events.
		if until := now.Add(lease); until.Sub(*t.p.Deadline) >= holdSlack {
			t.p.Deadline = &until
			b.publish(EventHeld, t.p)
		}
	}
	if !old.live() || old.Device != by.Device {
		b.publish(EventClaimed, t.p)
	}
	return t.p, nil
}
