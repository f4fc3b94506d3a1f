package desk

import (
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// LocalHandler serves the API with no token, for a listener that vouches
// for its callers (the hub's inbox socket); the guard's rules still hold.
func TestLocalHandlerNeedsNoTokenButKeepsTheGuard(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	board := permission.NewBoard()
	s := New(ln, board, Options{})
	defer s.Close()
	board.Open(permission.Request{SessionID: "s", Round: 1, Questions: []permission.Question{{Question: "Q?", Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})

	w := httptest.NewRecorder()
	s.LocalHandler().ServeHTTP(w, httptest.NewRequest("GET", "http://localhost/question", nil))
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), `"Q?"`)

	w = httptest.NewRecorder()
	s.srv.Handler.ServeHTTP(w, httptest.NewRequest("GET", "http://localhost/question", nil))
	assert.Equal(t, http.StatusUnauthorized, w.Code, "the page's own handler still wants its credential")

	w = httptest.NewRecorder()
	r := httptest.NewRequest("GET", "http://localhost/question", nil)
	r.Header.Set("Origin", "http://evil.example")
	s.LocalHandler().ServeHTTP(w, r)
	assert.Equal(t, http.StatusForbidden, w.Code)

	var local bool
	s.api = http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { local = Local(r) })
	s.LocalHandler().ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "http://localhost/question", nil))
	assert.True(t, local)
}
