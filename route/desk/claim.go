package desk

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// ClaimFor is how long opening a card claims its set for the device
// (permission.Board.Claim): the page renews the claim while the user works
// on it (at most every 10 s), so a device put away loses it within a
// minute and another may answer without taking over.
const ClaimFor = HoldFor

// wireClaim is a set's claim as the desk shows it: the device answering
// it, and for how long yet (RemainingMs, for a clock not the server's).
type wireClaim struct {
	Device      string    `json:"device"`
	Name        string    `json:"name"`
	Until       time.Time `json:"until"`
	RemainingMs int64     `json:"remainingMs"`
	// Mine says the claim is the asking device's own.
	Mine bool `json:"mine,omitempty"`
}

func toWireClaim(c *permission.Claim) *wireClaim {
	if c = c.Live(); c == nil {
		return nil
	}
	return &wireClaim{Device: c.Device, Name: c.Name, Until: c.Until, RemainingMs: remainingMs(c.Until)}
}

// claim: POST /question/{id}/hold [{"takeover":true}]. The device opened
// set id's card to answer it: claim it for ClaimFor (renewed by each
// call), which also holds its deadline. A set another device claims is
// refused (409, with who has it) unless takeover says to take it over.
func (s *Server) claim(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Takeover bool `json:"takeover"`
	}
	if r.ContentLength != 0 {
		if err := decodeBody(r, &body); err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	id := r.PathValue("id")
	if p, ok := s.board.Get(id); ok && p.State != permission.StatePending {
		s.settled(w, p)
		return
	}
	b := by(r, "")
	p, err := s.board.Claim(id, b, ClaimFor, body.Takeover)
	if err != nil {
		s.boardError(w, id, err)
		return
	}
	if body.Takeover {
		s.logger.Info("desk: a question taken over", "id", id, "device", b.Device)
	}
	out := claimed{ID: id, Claim: toWireClaim(p.Claim)}
	if out.Claim != nil {
		out.Claim.Mine = true
	}
	if p.Deadline != nil {
		out.Deadline = p.Deadline
		left := remainingMs(*p.Deadline)
		out.RemainingMs = &left
	}
	writeJSON(w, http.StatusOK, out)
}

// claimed is the claim route's reply: the hold's (the deadline), and the
// claim.
type claimed struct {
	ID          string     `json:"id"`
	Deadline    *time.Time `json:"deadline,omitempty"`
	RemainingMs *int64     `json:"remainingMs,omitempty"`
	Claim       *wireClaim `json:"claim,omitempty"`
}

// claimedError is the 409 of an answer or claim refused because another
// device has the set.
type claimedError struct {
	httpError
	Claim *wireClaim `json:"claim"`
}

// writeClaimed writes err, when it is a claim refused, and says so.
func writeClaimed(w http.ResponseWriter, err error) bool {
	var ce *permission.ClaimedError
	if !errors.As(err, &ce) {
		return false
	}
	writeJSON(w, http.StatusConflict, claimedError{
		httpError: httpError{Error: fmt.Sprintf("being answered on %s: take it over to answer here", ce.Claim.Name), Status: http.StatusConflict},
		Claim:     toWireClaim(&ce.Claim)})
	return true
}
