package desk

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"
)

// challengeTTL is how long an approval's passkey challenge waits for the
// user's finger.
const challengeTTL = 2 * time.Minute

// challenges are the passkey challenges given for approvals: each bound
// to one device, one set, one step and the answers it will approve with.
type challenges struct {
	mu   sync.Mutex
	open map[string]*challenge // device id + set id
}

type challenge struct {
	expires time.Time
	step    int
	answers [][]string
	reason  string // a denial's, which the passkey vouches for too
	wa      *webauthn.WebAuthn
	session webauthn.SessionData
}

// errPresence is an approval (or a revocation) without the user's
// presence.
var errPresence = errors.New("this needs your passkey")

// presence: POST /question/{id}/presence {"answers","step"}. Before an
// approval's reply the page gets the options for the passkey assertion
// that will go with it ({"publicKey":…}), or {"noPasskey":true} for a
// device paired without one with approvals allowed.
func (s *Server) presence(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Answers [][]string `json:"answers"`
		Step    int        `json:"step"`
		Reason  string     `json:"reason"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	dev, id := device(r), r.PathValue("id")
	if dev.Passkey == nil {
		if dev.NoPasskeyApprovals {
			writeJSON(w, http.StatusOK, map[string]bool{"noPasskey": true})
			return
		}
		refuse(w, http.StatusForbidden, "this device was paired without a passkey, so it cannot approve: approve in the editor, or pair a device that has one")
		return
	}
	s.beginPresence(w, r, dev.ID+" "+id, body.Step, body.Answers, body.Reason)
}

// beginPresence answers the options of a passkey assertion by r's device
// for what key names (an approval of a set, a revocation), bound to step,
// answers and a denial's reason, good once for challengeTTL.
func (s *Server) beginPresence(w http.ResponseWriter, r *http.Request, key string, step int, answers [][]string, reason string) {
	dev := device(r)
	wa, rpID, err := s.relyingParty(r)
	if err == nil && rpID != dev.RPID {
		err = fmt.Errorf("this device's passkey is for %s: use it at that address", dev.RPID)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	assertion, sd, err := wa.BeginLogin(deviceUser(dev), webauthn.WithUserVerification(uvRequired))
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.challenges.mu.Lock()
	for k, c := range s.challenges.open {
		if time.Now().After(c.expires) {
			delete(s.challenges.open, k)
		}
	}
	s.challenges.open[key] = &challenge{expires: time.Now().Add(challengeTTL), step: step, answers: answers, reason: reason, wa: wa, session: *sd}
	s.challenges.mu.Unlock()
	writeJSON(w, http.StatusOK, assertion)
}

// present checks that the user is there to approve set id with answers:
// a passkey assertion with user verification, for the challenge this
// device got for exactly these answers, once. (A device paired without a
// passkey, with the user's leave to approve, never gets here: by gives it
// permission.ProofLeave, which the gate takes instead.)
func (s *Server) present(r *http.Request, id string, step int, answers [][]string, reason string, assertion json.RawMessage) error {
	dev := device(r)
	if dev.Passkey == nil {
		return fmt.Errorf("%w, and this device was paired without one", errPresence)
	}
	return s.checkPresence(r, dev.ID+" "+id, step, answers, reason, assertion)
}

// checkPresence checks assertion against the challenge r's device got for
// key with step and answers (beginPresence), once: signed by the device's
// passkey, user verified, its counter grown.
func (s *Server) checkPresence(r *http.Request, key string, step int, answers [][]string, reason string, assertion json.RawMessage) error {
	dev := device(r)
	if len(assertion) == 0 || string(assertion) == "null" {
		return fmt.Errorf("%w: no passkey assertion came with the request", errPresence)
	}
	s.challenges.mu.Lock()
	c, ok := s.challenges.open[key]
	delete(s.challenges.open, key) // one try
	s.challenges.mu.Unlock()
	switch {
	case !ok || time.Now().After(c.expires):
		return fmt.Errorf("%w: the passkey challenge expired or was used", errPresence)
	case c.step != step || !slices.EqualFunc(c.answers, answers, slices.Equal) || c.reason != reason:
		return fmt.Errorf("%w: the passkey was asked for other answers", errPresence)
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(assertion)
	var cred *webauthn.Credential
	if err == nil {
		cred, err = c.wa.ValidateLogin(deviceUser(dev), c.session, parsed)
	}
	if err == nil && !cred.Flags.UserVerified {
		err = errNoUV
	}
	if err == nil && cred.Authenticator.CloneWarning {
		err = errClone
	}
	if err != nil {
		s.logger.Warn("desk: a passkey assertion was refused", "for", key, "err", err)
		return fmt.Errorf("%w: %v", errPresence, err)
	}
	s.opts.Devices.Used(dev.ID, *cred)
	return nil
}
