package desk

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/askbridge/askbridge/internal/alarm"
	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
)

// pairings are the pairings begun (a code redeemed) and not yet finished:
// the registration of the device's passkey, bound to the ticket the
// browser got for the code.
type pairings struct {
	mu   sync.Mutex
	open map[string]*pairingState
}

type pairingState struct {
	expires time.Time
	user    user
	rpID    string
	wa      *webauthn.WebAuthn
	session *webauthn.SessionData // nil: no passkey possible at this address
}

func pairingNonce() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// pairBegin: POST /pair/begin {"code","name"}. The code is spent here; the
// answer holds a ticket for /pair/finish and, where the page's address
// takes passkeys, the options to create one.
func (s *Server) pairBegin(w http.ResponseWriter, r *http.Request) {
	var body struct{ Code, Name string }
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err := s.opts.Devices.Redeem(body.Code, source(r)); err != nil {
		alarm.Note(s.logger, alarm.WrongCode, "err", err, "from", r.RemoteAddr)
		refuseCode(w, err)
		return
	}
	st := &pairingState{expires: time.Now().Add(pairing.CodeTTL), user: newUser(body.Name)}
	out := struct {
		Ticket    string                       `json:"ticket"`
		PublicKey *protocol.CredentialCreation `json:"publicKey,omitempty"`
		NoPasskey string                       `json:"noPasskey,omitempty"` // why not
		// RemainingMs is the time left to finish, which the page counts down
		// while the passkey prompt waits on the user.
		RemainingMs int64 `json:"remainingMs"`
	}{Ticket: pairingNonce(), RemainingMs: pairing.CodeTTL.Milliseconds()}
	wa, rpID, err := s.relyingParty(r)
	if err == nil {
		var creation *protocol.CredentialCreation
		creation, st.session, err = wa.BeginRegistration(st.user,
			webauthn.WithAuthenticatorSelection(protocol.AuthenticatorSelection{UserVerification: uvRequired, ResidentKey: protocol.ResidentKeyRequirementDiscouraged}),
			webauthn.WithConveyancePreference(protocol.PreferNoAttestation))
		st.wa, st.rpID, out.PublicKey = wa, rpID, creation
	}
	if err != nil {
		out.NoPasskey = err.Error()
	}
	s.pairs.mu.Lock()
	for t, p := range s.pairs.open {
		if time.Now().After(p.expires) {
			delete(s.pairs.open, t)
		}
	}
	s.pairs.open[out.Ticket] = st
	s.pairs.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// pairFinish: POST /pair/finish {"ticket","name","credential"} with the
// passkey created, or {"ticket","name","noPasskeyApprovals"} without one.
// It pairs the device and sets its session.
func (s *Server) pairFinish(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Ticket, Name       string
		Credential         json.RawMessage
		NoPasskeyApprovals bool
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.pairs.mu.Lock()
	st, ok := s.pairs.open[body.Ticket]
	delete(s.pairs.open, body.Ticket) // one try
	s.pairs.mu.Unlock()
	if !ok || time.Now().After(st.expires) {
		refuse(w, http.StatusForbidden, "this pairing expired or was finished already: pair again with a new code")
		return
	}
	var cred *webauthn.Credential
	if len(body.Credential) > 0 && string(body.Credential) != "null" {
		if st.session == nil {
			writeError(w, http.StatusBadRequest, "no passkey can be made at this address")
			return
		}
		parsed, err := protocol.ParseCredentialCreationResponseBytes(body.Credential)
		if err == nil {
			cred, err = st.wa.CreateCredential(st.user, *st.session, parsed)
		}
		if err == nil && !cred.Flags.UserVerified {
			err = errNoUV
		}
		if err != nil {
			s.logger.Warn("desk: a passkey was refused while pairing", "err", err)
			refuse(w, http.StatusForbidden, "the passkey was refused: "+err.Error())
			return
		}
	}
	dev, sess, err := s.opts.Devices.Add(body.Name, st.rpID, st.user.id, cred, body.NoPasskeyApprovals)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	s.setSession(w, r, sess)
	s.logger.Info("desk: a device paired", "device", dev.ID, "name", dev.Name, "passkey", cred != nil)
	writeJSON(w, http.StatusOK, struct {
		Device deviceInfo `json:"device"`
		Key    string     `json:"key"`
		HubKey string     `json:"hubKey"` // the key the page holds the server to (prove.go)
		MAC    string     `json:"mac"`    // the key the page proves its requests with (auth_mac.go)
	}{wireDevice(dev, dev.ID), sess.Key, hubkey.Format(s.proveKey().Public()), base64.RawURLEncoding.EncodeToString(s.requestKey(sess.Cookie))})
}

// pairNew: POST /pair/new. An unpaired page asks for a code: it is shown
// where askbridge shows codes (its own terminal), never in the answer.
func (s *Server) pairNew(w http.ResponseWriter, r *http.Request) {
	if s.opts.ShowCode == nil {
		writeError(w, http.StatusNotFound, "this page cannot show a code: run askbridge hub pair")
		return
	}
	code, expires, err := s.opts.Devices.NewCodeFrom(source(r))
	if err != nil {
		refuseCode(w, err)
		return
	}
	if where := s.opts.ShowCode(code, s.PairURL(code), expires); where != "" {
		writeJSON(w, http.StatusOK, map[string]string{"shown": where})
		return
	}
	writeError(w, http.StatusNotFound, "askbridge has no terminal to show a code on: run askbridge hub pair")
}

// refuseCode answers a refused pairing code or code request: 429 with
// Retry-After for a source told to wait (pairing.SlowDown), else 403.
func refuseCode(w http.ResponseWriter, err error) {
	var slow *pairing.SlowDown
	if errors.As(err, &slow) {
		w.Header().Set("Retry-After", strconv.Itoa(int(max(time.Second, slow.Retry.Round(time.Second))/time.Second)))
		refuse(w, http.StatusTooManyRequests, err.Error())
		return
	}
	refuse(w, http.StatusForbidden, err.Error())
}

// PairURL is the page's address with a pairing code as a link carries it
// (pairing.Devices.Link: it works at once, whoever else tries codes), for
// the terminal and the QR code only: the code is after '#', which no
// browser sends.
func (s *Server) PairURL(code string) string {
	return s.URL() + "#pair=" + s.opts.Devices.Link(code)
}
