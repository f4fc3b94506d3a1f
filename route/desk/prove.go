package desk

import (
	"encoding/base64"
	"net/http"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
)

// The page sends its session key only to a server that proves it holds the
// key the page got when it paired (prove.js): GET /api/prove?nonce=N, the
// page's fresh nonce, answered with the key's signature of the nonce and
// the Host the browser asked for (hubkey.PageContext). A process that
// takes the port while the hub is down (another user's, the agent's) has
// no key to sign with, and gets no session key from an open tab. It needs
// no session: the proof is what the page asks before it sends one. Its
// answer carries the one-time ticket that request is then bound to.

// proveKey is the key the page is given at pairing and proofs are signed
// with: Options.Key, else one of this run's.
func (s *Server) proveKey() *hubkey.Key {
	s.keyOnce.Do(func() {
		if s.opts.Key == nil {
			s.opts.Key = hubkey.Generate()
		}
	})
	return s.opts.Key
}

// prove: GET /api/prove?nonce=BASE64URL.
func (s *Server) prove(w http.ResponseWriter, r *http.Request) {
	nonce, err := base64.RawURLEncoding.DecodeString(r.URL.Query().Get("nonce"))
	if err != nil {
		writeError(w, http.StatusBadRequest, "nonce: want base64url")
		return
	}
	sig, err := s.proveKey().Prove(hubkey.PageContext, r.Host, nonce)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"key": hubkey.Format(s.proveKey().Public()), "sig": base64.RawURLEncoding.EncodeToString(sig),
		"ticket": s.tickets.issue(time.Now())}) // for the request the page proves next (auth_mac.go)
}
