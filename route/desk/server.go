package desk

import (
	"crypto/tls"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/internal/connpool"
	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
)

//go:embed static
var static embed.FS

// Defaults of the desk's connection limits.
const (
	DefaultMaxConns       = 64
	DefaultIdleTimeout    = 30 * time.Second
	DefaultRequestTimeout = 10 * time.Second
)

// Options configure a desk.
type Options struct {
	// Devices are the paired browsers: every API request needs one's
	// session (nil: a set of this run only, with no device yet).
	Devices *pairing.Devices
	// ShowCode, when set, shows a new pairing code where only the user
	// sees it (the hub's or askbridge's own terminal) when an unpaired
	// page asks for one, and says where ("" when it could not).
	ShowCode    func(code, link string, expires time.Time) (where string)
	AllowRemote bool // listen on, and accept Host headers for, more than loopback
	// NoCustom refuses answers that are not among a question's options
	// (custom answers are on by default, as in OpenCode).
	NoCustom bool
	Logger   *slog.Logger
	// Connection limits; zero takes the default. MaxConns caps the
	// connections that have not authenticated (a new one closes the
	// oldest; see conns.go); authenticated ones are never crowded out.
	// IdleTimeout closes a keep-alive connection with no request;
	// RequestTimeout bounds reading a request and writing its response
	// (not the event stream, which lives on).
	MaxConns       int
	IdleTimeout    time.Duration
	RequestTimeout time.Duration
	// Routes are more API routes ("GET /instance"), behind a session.
	Routes map[string]http.HandlerFunc
	// Taps, when set, serves POST /tap/{token}: the answer buttons of
	// notifications, each a one-time token Taps signed. Nil: no such route.
	Taps *answertoken.Key
	// PublicURL is the desk's address as a phone reaches it (--public-url),
	// through a tunnel or a proxy: requests addressed to its host and
	// coming from its origin are the desk's own.
	PublicURL string
	// TLS, when set, serves the page and API over HTTPS only (the hub's
	// --tls-cert): URL then says https, and a plain-HTTP request fails.
	TLS *tls.Config
	// Addr, when set, is the host:port URL names instead of the listener's
	// own, which for 0.0.0.0 no phone can open.
	Addr string
	// Key is what the page is given at pairing and holds the server to
	// before it sends its session (prove.go): the hub's key; nil, one of
	// this run's.
	Key *hubkey.Key
	// Hub says the page is askbridge hub's: it is named so (page.go), and
	// the sets answered at it are recorded as answered at the hub.
	Hub bool
}

// Server is a running desk.
type Server struct {
	board  *permission.Board
	opts   Options
	logger *slog.Logger
	ln     net.Listener
	srv    *http.Server
	api    http.Handler // the API without its credential check (local.go)
	conns  *connpool.Pool

	pairs      pairings
	challenges challenges
	keyOnce    sync.Once
	tickets    tickets  // the one-time tickets requests prove with (auth_ticket.go)
	removed    removals // foreign service workers replaced (worker.go)
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
	ln, err := ListenTCP(addr)
	if err != nil {
		return nil, fmt.Errorf("--desk: %w", err)
	}
	return New(ln, board, opts), nil
}

// New serves a desk on ln.
func New(ln net.Listener, board *permission.Board, opts Options) *Server {
	if opts.Devices == nil {
		opts.Devices = pairing.Memory()
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.MaxConns = cmpOr(opts.MaxConns, DefaultMaxConns)
	opts.IdleTimeout = cmpOr(opts.IdleTimeout, DefaultIdleTimeout)
	opts.RequestTimeout = cmpOr(opts.RequestTimeout, DefaultRequestTimeout)
	s := &Server{board: board, opts: opts, logger: opts.Logger, ln: ln,
		pairs: pairings{open: map[string]*pairingState{}}, challenges: challenges{open: map[string]*challenge{}}}

	api := http.NewServeMux()
	api.HandleFunc("GET /question", s.listQuestions)
	api.HandleFunc("POST /question/{id}/reply", s.reply)
	api.HandleFunc("POST /question/{id}/reject", s.reject)
	api.HandleFunc("POST /question/{id}/hold", s.claim) // a claim holds too
	api.HandleFunc("POST /api/task/answer", s.taskAnswer)
	api.HandleFunc("GET /event", s.events)
	api.HandleFunc("GET /api/session", s.sessions)
	api.HandleFunc("GET /api/session/{id}/history", s.history)
	api.HandleFunc("POST /question/{id}/presence", s.presence)
	api.HandleFunc("POST /question/{id}/mode", s.switchMode)
	api.HandleFunc("POST /question/{id}/mode/presence", s.modePresence)
	api.HandleFunc("GET /api/device", s.myDevice)
	api.HandleFunc("GET /api/devices", s.listDevices)
	api.HandleFunc("DELETE /api/devices/{id}", s.revokeDevice)
	api.HandleFunc("POST /api/devices/{id}/presence", s.revokePresence)
	for pattern, h := range opts.Routes {
		api.HandleFunc(pattern, h)
	}
	// The page itself holds no data and needs no session: unpaired, it
	// pairs (pair.js); paired, it sends its session with every API call.
	root := http.NewServeMux()
	sub, _ := fs.Sub(static, "static")
	files := http.FileServerFS(sub)
	root.HandleFunc("GET /{$}", s.index)
	for _, page := range []string{"GET /app.js", "GET /deadline.js", "GET /groups.js", "GET /pair.js", "GET /prove.js", "GET /style.css",
		"GET /decisions.js", "GET /claims.js", "GET /grants.js", "GET /push.js", "GET /worker.js", "GET /context.js", "GET /modes.js", "GET /manifest.json", "GET /icon.svg"} {
		root.Handle(page, files)
	}
	for _, page := range []string{"GET /feedback.js", "GET /approval.js"} { // what a tap did, beside it; an approval's card
		root.Handle(page, files)
	}
	root.HandleFunc("POST /pair/begin", s.pairBegin)
	root.HandleFunc("POST /pair/finish", s.pairFinish)
	root.HandleFunc("POST /pair/new", s.pairNew)
	root.HandleFunc("GET /api/prove", s.prove)
	root.HandleFunc("GET "+workerPath, s.serviceWorker)
	root.HandleFunc("GET /api/worker", s.workerState)
	if opts.Taps != nil {
		root.HandleFunc("POST "+TapPath+"{token}", s.tap)
	}
	root.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	root.Handle("/", s.authorize(api))
	s.api = api

	s.srv = &http.Server{
		ReadTimeout:  opts.RequestTimeout,
		WriteTimeout: opts.RequestTimeout,
		IdleTimeout:  opts.IdleTimeout,
		ErrorLog:     slog.NewLogLogger(opts.Logger.Handler(), slog.LevelDebug),
	}
	lim := s.pool(walled(ln, opts.Logger), s.guard(s.workers(root)))
	if opts.TLS != nil {
		s.srv.TLSConfig = opts.TLS
		go s.srv.ServeTLS(lim, "", "")
		return s
	}
	go s.srv.Serve(lim)
	return s
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// URL is the page's address, as printed at start: on loopback as
// localhost, the name a passkey can be made for (never an address).
func (s *Server) URL() string {
	scheme, addr := "http", cmpOr(s.opts.Addr, s.ln.Addr().String())
	if s.opts.TLS != nil {
		scheme = "https"
	}
	if host, port, err := net.SplitHostPort(addr); err == nil && isLoopback(host) {
		addr = net.JoinHostPort("localhost", port)
	}
	return scheme + "://" + addr + "/"
}

// Devices are the desk's paired devices.
func (s *Server) Devices() *pairing.Devices { return s.opts.Devices }

// Close stops the desk.
func (s *Server) Close() error { return s.srv.Close() }
