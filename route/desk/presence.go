package desk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
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
	// statement, for an approval, is what its answers apply: the
	// challenge is its hash (decisions.Statement).
	statement []byte
	wa        *webauthn.WebAuthn
	session   webauthn.SessionData
}

// errPresence is an approval (or a revocation) without the user's
// presence.
var errPresence = errors.New("this needs your passkey")

// presence: POST /question/{id}/presence {"answers","step","reason"}.
// Before an approval's reply the page gets the options for the passkey
// assertion that will go with it ({"publicKey":…}, with the "statement"
// whose SHA-256 is the challenge), or {"noPasskey":true} for a device
// paired without one with approvals allowed.
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
	var stmt []byte
	if p, ok := s.board.Get(id); ok && p.Approval != nil {
		st, err := s.statement(p, dev.ID, body.Answers, body.Reason, time.Now(), nonce())
		if err == nil {
			stmt, err = st.Canonical()
		}
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	s.beginSigned(w, r, dev.ID+" "+id, body.Step, body.Answers, body.Reason, stmt)
}

// beginPresence answers the options of a passkey assertion by r's device
// for what key names (a revocation), bound to step, answers and a
// denial's reason, good once for challengeTTL.
func (s *Server) beginPresence(w http.ResponseWriter, r *http.Request, key string, step int, answers [][]string, reason string) {
	s.beginSigned(w, r, key, step, answers, reason, nil)
}

// beginSigned is beginPresence whose challenge, when stmt is set, is its
// hash (decisions.Challenge) rather than random: the passkey then signs
// the statement of what will be applied.
func (s *Server) beginSigned(w http.ResponseWriter, r *http.Request, key string, step int, answers [][]string, reason string, stmt []byte) {
	dev := device(r)
	wa, rpID, err := s.relyingParty(r)
	if err == nil && rpID != dev.RPID {
		err = fmt.Errorf("this device's passkey is for %s: use it at that address", dev.RPID)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	opts := []webauthn.LoginOption{webauthn.WithUserVerification(uvRequired)}
	if stmt != nil {
		opts = append(opts, webauthn.WithChallenge(decisions.Challenge(stmt)))
	}
	assertion, sd, err := wa.BeginLogin(deviceUser(dev), opts...)
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
	s.challenges.open[key] = &challenge{expires: time.Now().Add(challengeTTL), step: step, answers: answers, reason: reason, statement: stmt, wa: wa, session: *sd}
	s.challenges.mu.Unlock()
	writeJSON(w, http.StatusOK, struct {
		*protocol.CredentialAssertion
		Statement string `json:"statement,omitempty"` // for the curious: the page need not read it
	}{assertion, string(stmt)})
}

// present checks that the user is there to approve set id with answers:
// a passkey assertion with user verification, over the statement this
// device was given for exactly these answers, once; the proof is for the
// decisions log. (A device paired without a passkey, with the user's
// leave to approve, never gets here: by gives it permission.ProofLeave,
// which the gate takes instead.)
func (s *Server) present(r *http.Request, id string, step int, answers [][]string, reason string, assertion json.RawMessage) (*permission.Signed, error) {
	dev := device(r)
	if dev.Passkey == nil {
		return nil, fmt.Errorf("%w, and this device was paired without one", errPresence)
	}
	p, ok := s.board.Get(id)
	if !ok || p.Approval == nil {
		return nil, fmt.Errorf("%w: %q is no approval", errPresence, id)
	}
	return s.checkSigned(r, dev.ID+" "+id, step, answers, reason, assertion, &p)
}

// checkPresence checks assertion against the challenge r's device got for
// key with step and answers (beginPresence), once: signed by the device's
// passkey, user verified, its counter grown.
func (s *Server) checkPresence(r *http.Request, key string, step int, answers [][]string, reason string, assertion json.RawMessage) error {
	_, err := s.checkSigned(r, key, step, answers, reason, assertion, nil)
	return err
}

// checkSigned is checkPresence for approving set p, when set: the
// challenge must be the hash of the statement of what p's answers apply
// now, formed again here, so that what is signed is what is applied.
func (s *Server) checkSigned(r *http.Request, key string, step int, answers [][]string, reason string, assertion json.RawMessage, p *permission.Pending) (*permission.Signed, error) {
	dev := device(r)
	if len(assertion) == 0 || string(assertion) == "null" {
		return nil, fmt.Errorf("%w: no passkey assertion came with the request", errPresence)
	}
	s.challenges.mu.Lock()
	c, ok := s.challenges.open[key]
	delete(s.challenges.open, key) // one try
	s.challenges.mu.Unlock()
	switch {
	case !ok || time.Now().After(c.expires):
		return nil, fmt.Errorf("%w: the passkey challenge expired or was used", errPresence)
	case c.step != step || !slices.EqualFunc(c.answers, answers, slices.Equal) || c.reason != reason:
		return nil, fmt.Errorf("%w: the passkey was asked for other answers", errPresence)
	case p != nil && !s.states(*p, dev.ID, answers, reason, c.statement):
		return nil, fmt.Errorf("%w: the passkey was asked to sign another statement than what these answers apply", errPresence)
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
		return nil, fmt.Errorf("%w: %v", errPresence, err)
	}
	s.opts.Devices.Used(dev.ID, *cred)
	if c.statement == nil {
		return nil, nil
	}
	a := parsed.Raw.AssertionResponse
	return &permission.Signed{Statement: c.statement, Device: dev.ID, RPID: dev.RPID, CredentialID: parsed.RawID, PublicKey: cred.PublicKey,
		AuthenticatorData: a.AuthenticatorData, ClientDataJSON: a.ClientDataJSON, Signature: a.Signature}, nil
}

// states says whether signed is the statement of what answers (and
// reason) apply to p by device dev, at the time and with the nonce signed
// holds.
func (s *Server) states(p permission.Pending, dev string, answers [][]string, reason string, signed []byte) bool {
	was, err := decisions.ParseStatement(signed)
	if err != nil {
		return false
	}
	now, err := s.statement(p, dev, answers, reason, was.At, was.Nonce)
	if err != nil {
		return false
	}
	b, err := now.Canonical()
	return err == nil && bytes.Equal(b, signed)
}
