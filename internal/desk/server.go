package desk

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/askbridge/askbridge/permission"
)

//go:embed static
var static embed.FS

// Answer length limits: one answer, and a multi-select's joined answer.
const (
	MaxAnswer      = 256
	MaxMultiAnswer = 1000
)

// Options configure a desk.
type Options struct {
	Token       string // required on every request; empty makes a random one
	AllowRemote bool   // listen on, and accept Host headers for, more than loopback
	// NoCustom refuses answers that are not among a question's options
	// (custom answers are on by default, as in OpenCode).
	NoCustom bool
	Logger   *slog.Logger
}

// Server is a running desk.
type Server struct {
	board  *permission.Board
	opts   Options
	logger *slog.Logger
	ln     net.Listener
	srv    *http.Server
	mux    *http.ServeMux
}

// Listen opens the desk on addr ("127.0.0.1:0" picks a port). A
// non-loopback address is refused unless AllowRemote.
func Listen(addr string, board *permission.Board, opts Options) (*Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--desk %q: want host:port, e.g. 127.0.0.1:0", addr)
	}
	if !opts.AllowRemote && !isLoopback(host) {
		return nil, fmt.Errorf("--desk %q: the desk listens on loopback only (127.0.0.1, ::1, localhost) unless --desk-allow-remote", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--desk: %w", err)
	}
	return New(ln, board, opts), nil
}

// New serves a desk on ln.
func New(ln net.Listener, board *permission.Board, opts Options) *Server {
	if opts.Token == "" {
		b := make([]byte, 16)
		rand.Read(b)
		opts.Token = hex.EncodeToString(b)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{board: board, opts: opts, logger: opts.Logger, ln: ln}
	s.mux = http.NewServeMux()
	sub, _ := fs.Sub(static, "static")
	files := http.FileServerFS(sub)
	s.mux.Handle("GET /", files)
	s.mux.HandleFunc("GET /question", s.listQuestions)
	s.mux.HandleFunc("POST /question/{id}/reply", s.reply)
	s.mux.HandleFunc("POST /question/{id}/reject", s.reject)
	s.mux.HandleFunc("POST /api/task/answer", s.taskAnswer)
	s.mux.HandleFunc("GET /event", s.events)
	s.mux.HandleFunc("GET /api/session/{id}/history", s.history)
	s.srv = &http.Server{Handler: s.guard(s.mux), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s
}

// URL is the page's address with the token, as printed at start.
func (s *Server) URL() string {
	return "http://" + s.ln.Addr().String() + "/?token=" + s.opts.Token
}

// Token is the token every request must carry.
func (s *Server) Token() string { return s.opts.Token }

// Close stops the desk.
func (s *Server) Close() error { return s.srv.Close() }

const cookieName = "askbridge_desk"

// guard applies the security rules to every request.
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
			if !isLoopback(host) {
				writeError(w, http.StatusForbidden, "the desk answers only requests addressed to a loopback host, not "+r.Host)
				return
			}
		}
		if origin := r.Header.Get("Origin"); origin != "" && origin != "http://"+r.Host {
			writeError(w, http.StatusForbidden, "cross-origin requests are refused")
			return
		}
		token, fromQuery := s.requestToken(r)
		if subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.Token)) != 1 {
			writeError(w, http.StatusUnauthorized, "missing or wrong desk token: open the URL askbridge printed, or send Authorization: Bearer <token>")
			return
		}
		if fromQuery && r.Method == http.MethodGet {
			// The page calls the API with this cookie, so the token leaves the address bar.
			http.SetCookie(w, &http.Cookie{Name: cookieName, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) requestToken(r *http.Request) (string, bool) {
	if t := r.URL.Query().Get("token"); t != "" {
		return t, true
	}
	if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(a), false
	}
	if c, err := r.Cookie(cookieName); err == nil {
		return c.Value, false
	}
	return "", false
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"error": msg, "status": status})
}

// boardError maps the board's errors to HTTP.
func boardError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, permission.ErrUnknown):
		writeError(w, http.StatusNotFound, "no such question")
	case errors.Is(err, permission.ErrResolved):
		writeError(w, http.StatusConflict, "this question was already answered or cancelled")
	default:
		writeError(w, http.StatusInternalServerError, err.Error())
	}
}
