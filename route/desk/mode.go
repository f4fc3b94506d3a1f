package desk

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/askbridge/askbridge/permission"
)

// A paired device switches a set's session to another of the agent's
// modes from the card: POST /question/{id}/mode {"mode"} for one that
// asks more; one that asks less answers 403 {"presence":true} until the
// same request comes with a passkey assertion ("assertion") for the
// challenge POST /question/{id}/mode/presence {"mode"} gave. Whoever serves
// the agent decides which is which (permission.RequestMode); the terminal
// inbox switches nothing.

// modeKey is what a mode switch's passkey challenge is bound to.
func modeKey(dev, id string) string { return dev + " mode " + id }

func (s *Server) switchMode(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Mode      string          `json:"mode"`
		Assertion json.RawMessage `json:"assertion"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if Local(r) {
		refuse(w, http.StatusForbidden, "the terminal inbox cannot switch a session's mode: use the page")
		return
	}
	id, b := r.PathValue("id"), by(r, "")
	b.Source = s.source(r)
	if len(body.Assertion) > 0 && string(body.Assertion) != "null" {
		if err := s.checkPresence(r, modeKey(b.Device, id), 0, [][]string{{body.Mode}}, "", body.Assertion); err != nil {
			refuse(w, http.StatusForbidden, err.Error())
			return
		}
		b.Proof |= permission.ProofPresence
	}
	err := s.board.RequestMode(id, body.Mode, b)
	switch {
	case err == nil:
		s.logger.Info(s.pageName()+": a session's mode switched from the page", "set", id, "mode", body.Mode, "device", b.Name, "passkey", b.Proof.Has(permission.ProofPresence))
		writeJSON(w, http.StatusOK, map[string]string{"mode": body.Mode})
	case errors.Is(err, permission.ErrModeNeedsPresence):
		writeJSON(w, http.StatusForbidden, map[string]any{"error": err.Error(), "presence": true})
	case errors.Is(err, permission.ErrUnknown):
		writeError(w, http.StatusNotFound, err.Error())
	case errors.Is(err, permission.ErrNoModes):
		writeError(w, http.StatusConflict, err.Error())
	default:
		writeError(w, http.StatusBadGateway, err.Error())
	}
}

// modePresence: POST /question/{id}/mode/presence {"mode"}: the options of
// the passkey assertion that goes with a switch to a mode that asks less.
func (s *Server) modePresence(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Mode string `json:"mode"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	dev := device(r)
	if dev.Passkey == nil {
		refuse(w, http.StatusForbidden, "this device was paired without a passkey, so it cannot switch to a mode that asks less: switch in the editor, or pair a device that has one")
		return
	}
	s.beginPresence(w, r, modeKey(dev.ID, r.PathValue("id")), 0, [][]string{{body.Mode}}, "")
}
