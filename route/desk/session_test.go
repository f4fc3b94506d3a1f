package desk

import (
	"encoding/base64"
	"net/http"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/stretchr/testify/require"
)

// testSessions are the sessions of the devices the tests paired, one per
// desk (questions only: approving takes a passkey, or the opt-in).
var testSessions sync.Map // *Server -> pairing.Session

// sessionOf is a session of a device paired with s through the Go API.
func sessionOf(t *testing.T, s *Server) pairing.Session {
	t.Helper()
	if sess, ok := testSessions.Load(s); ok {
		return sess.(pairing.Session)
	}
	_, sess, err := s.Devices().Add("test", "", nil, nil, false)
	require.NoError(t, err)
	testSessions.Store(s, sess)
	return sess
}

// authHeaders are the headers a paired page's requests carry.
func authHeaders(s *Server, sess pairing.Session) map[string]string {
	return map[string]string{"Cookie": s.cookieName() + "=" + sess.Cookie, KeyHeader: sess.Key}
}

// sign makes req one of the paired test device's: a read with its key,
// anything else proved as the page proves it (auth_mac.go).
func sign(t *testing.T, s *Server, req *http.Request) {
	t.Helper()
	for k, v := range authHeaders(s, sessionOf(t, s)) {
		req.Header.Set(k, v)
	}
	prove(t, s, req)
}

// prove turns req, when it changes something and carries a paired
// device's whole session, into the page's request: proved with a MAC
// bound to it, the key taken off. Any other request stays as it is.
func prove(t *testing.T, s *Server, req *http.Request) {
	t.Helper()
	sess := s.session(req)
	if _, ok := s.Devices().Check(sess); ok && !readOnly(req.Method) {
		require.NoError(t, Sign(req, requestKeyOf(s, sess)))
	}
}

// requestKeyOf is the request key pairing gives sess's page.
func requestKeyOf(s *Server, sess pairing.Session) string {
	return base64.RawURLEncoding.EncodeToString(s.requestKey(sess.Cookie))
}

// withSession is hdr with the test device's session.
func withSession(t *testing.T, s *Server, hdr map[string]string) map[string]string {
	for k, v := range authHeaders(s, sessionOf(t, s)) {
		hdr[k] = v
	}
	return hdr
}
