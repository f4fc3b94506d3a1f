package desk

import (
	"net"
	"net/http"
	"strings"
)

// guard applies the rules every response follows: security headers, no
// host but loopback (DNS rebinding), no other origin.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if !s.opts.AllowRemote {
			host, _, err := net.SplitHostPort(r.Host)
			if err != nil {
				host = r.Host
			}
			if !isLoopback(host) && !s.public(r.Host) {
				refuse(w, http.StatusForbidden, "the desk answers only requests addressed to a loopback host, not "+r.Host)
				return
			}
		}
		// A tap carries its own credential, and the ntfy web app posts it
		// from ntfy's origin: no origin rule is needed or met there.
		tap := r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, TapPath) && s.opts.Taps != nil
		self := "http://" + r.Host
		if r.TLS != nil {
			self = "https://" + r.Host
		}
		if origin := r.Header.Get("Origin"); origin != "" && origin != self && !s.public(origin) && !tap {
			refuse(w, http.StatusForbidden, "cross-origin requests are refused")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// public says whether hostOrOrigin (a Host header, or an Origin) is the
// public URL's host, or its origin.
func (s *Server) public(hostOrOrigin string) bool {
	u := s.publicURL()
	if u == nil {
		return false
	}
	return strings.EqualFold(hostOrOrigin, u.Host) || strings.EqualFold(hostOrOrigin, u.Scheme+"://"+u.Host)
}

// refuse answers an error and closes the connection: a client refused
// once gets no keep-alive connection to hold open.
func refuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Connection", "close")
	writeError(w, status, msg)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
