package desk

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/askbridge/askbridge/internal/pairing"
)

// KeyHeader carries the half of a session a program keeps (the cookie
// carries the other half). It opens reads only: a request that changes
// anything proves itself with a MAC bound to it instead (auth_mac.go),
// which is all the page ever sends.
const KeyHeader = "X-Askbridge-Key"

// sessionAge is how long a browser keeps its session cookie: until the
// device is revoked, in practice (browsers cap it at 400 days).
const sessionAge = 400 * 24 * time.Hour

type deviceKey struct{}

// cookieName is the session cookie's: one per port, since a cookie goes to
// every port of its host and two desks on one host must not overwrite
// each other's.
func (s *Server) cookieName() string {
	_, port, _ := net.SplitHostPort(s.ln.Addr().String())
	return "askbridge-" + port
}

// session is the request's session, as the browser sent it.
func (s *Server) session(r *http.Request) pairing.Session {
	out := pairing.Session{Key: r.Header.Get(KeyHeader)}
	if c, err := r.Cookie(s.cookieName()); err == nil {
		out.Cookie = c.Value
	}
	return out
}

// authenticated says whether r carries a paired device's session. The
// connection pool asks it too (conns.go): an authenticated connection is
// never crowded out by others.
func (s *Server) authenticated(r *http.Request) bool {
	if r.Header.Get(MACHeader) != "" {
		return s.macPending(r)
	}
	_, ok := s.opts.Devices.Check(s.session(r))
	return ok
}

// sessionDevice is the paired device r is from: a request proved with a
// MAC bound to it (its ticket then spent), or, for a read, the session's
// cookie and key. The error is a body too long to check.
func (s *Server) sessionDevice(r *http.Request) (pairing.Device, bool, error) {
	switch {
	case r.Header.Get(MACHeader) != "":
		return s.macDevice(r)
	case readOnly(r.Method):
		dev, ok := s.opts.Devices.Check(s.session(r))
		return dev, ok, nil
	}
	return pairing.Device{}, false, nil
}

// authorize wants a paired device's session (sessionDevice). The device
// is in the request's context for the handlers after.
func (s *Server) authorize(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dev, ok, err := s.sessionDevice(r)
		if err != nil {
			writeError(w, http.StatusBadRequest, err.Error())
			return
		}
		if !ok && !readOnly(r.Method) && r.Header.Get(KeyHeader) != "" {
			refuse(w, http.StatusUnauthorized, "a request that changes something is proved with a MAC over its own ticket ("+MACHeader+"), never the session key: get a ticket from /api/prove")
			return
		}
		if !ok {
			refuse(w, http.StatusUnauthorized, "this browser is not paired with askbridge: pair it with the code askbridge shows on its terminal (askbridge hub pair)")
			return
		}
		s.conns.Own(r, dev.ID)                        // revoking dev closes this connection (conns.go)
		if _, ok := s.opts.Devices.Get(dev.ID); !ok { // revoked meanwhile
			refuse(w, http.StatusUnauthorized, "this browser's pairing was revoked: pair it again")
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), deviceKey{}, dev)))
	})
}

// device is the paired device making r (authorize put it there).
func device(r *http.Request) pairing.Device {
	dev, _ := r.Context().Value(deviceKey{}).(pairing.Device)
	return dev
}

// setSession gives the browser the cookie half of its session.
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, sess pairing.Session) {
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: sess.Cookie, Path: "/", MaxAge: int(sessionAge / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.secure(r)})
}

// secure says whether the browser reaches the page over HTTPS (directly,
// or through --public-url's proxy).
func (s *Server) secure(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if u := s.publicURL(); u != nil && s.public(r.Host) {
		return u.Scheme == "https"
	}
	return false
}

// myDevice: GET /api/device, the device asking; GET /api/devices, all of
// them; DELETE /api/devices/{id} revokes one (revoke.go).
func (s *Server) myDevice(w http.ResponseWriter, r *http.Request) {
	dev := device(r)
	dev.Hash = nil
	writeJSON(w, http.StatusOK, wireDevice(dev, dev.ID))
}

func (s *Server) listDevices(w http.ResponseWriter, r *http.Request) {
	out := []deviceInfo{}
	for _, d := range s.opts.Devices.List() {
		out = append(out, wireDevice(d, device(r).ID))
	}
	writeJSON(w, http.StatusOK, out)
}

// deviceInfo is a device as the page shows it.
type deviceInfo struct {
	ID                 string    `json:"id"`
	Name               string    `json:"name"`
	Paired             time.Time `json:"paired"`
	Passkey            bool      `json:"passkey"`
	NoPasskeyApprovals bool      `json:"noPasskeyApprovals,omitempty"`
	This               bool      `json:"this,omitempty"`
}

func wireDevice(d pairing.Device, me string) deviceInfo {
	return deviceInfo{ID: d.ID, Name: d.Name, Paired: d.Paired, Passkey: d.Passkey != nil, NoPasskeyApprovals: d.NoPasskeyApprovals, This: d.ID == me}
}
