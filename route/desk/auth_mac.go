package desk

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/askbridge/askbridge/internal/pairing"
)

// A paired page never sends its session's secret. Each request it makes
// carries a ticket the server gave out (auth_ticket.go) and a MAC, under
// the page's request key, over that ticket, the method, the path and a
// SHA-256 of the body. The server checks the MAC and consumes the ticket,
// so a process that catches such a request (one holding the port for the
// milliseconds the hub was down) holds nothing it can replay: the ticket
// is spent or unknown at the hub, and the MAC vouches for that request
// alone.
//
// The request key is the hub key's derivation bound to the session's
// cookie (requestKey): the server needs no store of its own for it, the
// devices file still holds nothing that answers, and the cookie half of
// the session stays needed. The page gets it at pairing.
const (
	TicketHeader = "X-Askbridge-Ticket"
	MACHeader    = "X-Askbridge-Mac"
)

// requestKey is the key the page holding cookie MACs its requests with.
func (s *Server) requestKey(cookie string) []byte {
	m := hmac.New(sha256.New, s.proveKey().Derive("askbridge request key v1"))
	m.Write([]byte(cookie))
	return m.Sum(nil)
}

// RequestMAC is a request's proof: HMAC-SHA256 under key of the ticket,
// method, path (with its query, as sent) and the body's SHA-256, one a
// line. The page's prove.js computes the same.
func RequestMAC(key []byte, ticket, method, path string, body []byte) string {
	sum := sha256.Sum256(body)
	m := hmac.New(sha256.New, key)
	m.Write([]byte("askbridge request v1\n" + ticket + "\n" + method + "\n" + path + "\n" + hex.EncodeToString(sum[:])))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// macDevice is the device whose bound proof r carries, its ticket then
// consumed. r's body is read and put back for the handler; one over
// maxBody is refused (errTooLong) before any MAC is made over it.
func (s *Server) macDevice(r *http.Request) (pairing.Device, bool, error) {
	cookie, ticket := s.session(r).Cookie, r.Header.Get(TicketHeader)
	id, _, ok := strings.Cut(cookie, ".")
	if !ok || ticket == "" {
		return pairing.Device{}, false, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return pairing.Device{}, false, nil
	}
	if len(body) > maxBody {
		return pairing.Device{}, false, errTooLong
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	want := RequestMAC(s.requestKey(cookie), ticket, r.Method, r.URL.RequestURI(), body)
	if !hmac.Equal([]byte(want), []byte(r.Header.Get(MACHeader))) || !s.tickets.take(ticket, time.Now()) {
		return pairing.Device{}, false, nil
	}
	dev, ok := s.opts.Devices.Get(id)
	return dev, ok, nil
}

// errTooLong is a body over maxBody, in decodeBody's words.
var errTooLong = fmt.Errorf("body: over %d bytes; the limit is 1 MiB", maxBody)

// macPending says, for the connection pool, whether r looks like a bound
// proof of a paired device: its ticket out, its cookie a device's. The
// MAC itself is checked, and the ticket taken, by authorize.
func (s *Server) macPending(r *http.Request) bool {
	id, _, ok := strings.Cut(s.session(r).Cookie, ".")
	if !ok || !s.tickets.pending(r.Header.Get(TicketHeader), time.Now()) {
		return false
	}
	_, ok = s.opts.Devices.Get(id)
	return ok
}

// readOnly: the methods that change nothing, which a program may still
// make with the session's key in KeyHeader (curl, the tests' clients).
func readOnly(method string) bool {
	return method == http.MethodGet || method == http.MethodHead
}
