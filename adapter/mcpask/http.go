package mcpask

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/connpool"
	"github.com/askbridge/askbridge/permission"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP serves the ask tool over MCP's streamable HTTP transport from inside
// askbridge, for agents that start no stdio server (Copilot CLI). Each
// listing (one per session-creating request) has its own path, /mcp/<tag>,
// and its own bearer token: the tag says which session asks, exactly as
// ASKBRIDGE_MCP_TAG does for `askbridge mcp`, and the token is what keeps
// every other local process out. A request without the listing's token gets
// 401 and never reaches the tool.
//
// The tool is the one `askbridge mcp` serves (New), asking through the same
// ask socket with the same tag: validation, results, timeouts and cancels
// are the same whichever transport the agent uses.
type HTTP struct {
	socket string
	limits permission.Limits
	logger *slog.Logger

	mu       sync.Mutex
	srv      *http.Server
	base     string // http://127.0.0.1:PORT, once listening
	listings map[string]*listing
	closed   bool
	idle     time.Duration // HTTPIdleTimeout; tests shorten it
	progress time.Duration // Options.ProgressFor of every listing
	streams  streams       // the POSTs being served (stream.go)
}

// SetProgress is Options.ProgressFor for the listings added from now on.
func (s *HTTP) SetProgress(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.progress = d
}

type listing struct {
	token   string
	handler http.Handler
}

// HTTPIdleTimeout closes a keep-alive connection that sends no request.
// A question waiting for its answer is a request in progress, not idle.
const HTTPIdleTimeout = 30 * time.Second

// PathPrefix starts every listing's path; the tag follows.
const PathPrefix = "/mcp/"

// NewHTTP returns a server that asks through socket; it listens on first Add.
func NewHTTP(socket string, lim permission.Limits, logger *slog.Logger) *HTTP {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &HTTP{socket: socket, limits: lim, logger: logger, listings: map[string]*listing{}, idle: HTTPIdleTimeout}
}

// Add makes a listing for tag and returns its URL and bearer token. The
// first Add starts listening on 127.0.0.1 at a port the system picks.
func (s *HTTP) Add(tag string) (url, token string, err error) {
	if tag == "" || strings.ContainsAny(tag, "/?#%") {
		return "", "", errors.New("mcpask: a tag must be a plain path segment")
	}
	b := make([]byte, 32)
	rand.Read(b)
	token = hex.EncodeToString(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", "", errors.New("mcpask: the HTTP server is closed")
	}
	if s.srv == nil {
		if err := s.listen(); err != nil {
			return "", "", err
		}
	}
	opts := Options{Socket: s.socket, Tag: tag, Limits: s.limits, Logger: s.logger, ProgressFor: s.progress, streams: &s.streams}
	server := New(opts)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Logger: s.logger,
		// A dropped request withdraws its question, as a closed stdio does.
		PropagateRequestCancellation: true,
	})
	s.listings[tag] = &listing{token: token, handler: h}
	return s.base + PathPrefix + tag, token, nil
}

// Remove ends tag's listing: its token no longer opens anything.
func (s *HTTP) Remove(tag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.listings, tag)
}

// listen starts the server; s.mu is held.
func (s *HTTP) listen() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	// Connections that have not shown a listing's token get a pool of
	// their own (connpool): however many a local process opens, the
	// agent's own requests are served; an idle one is closed.
	pool := connpool.New(connpool.Options{Name: "mcp-ask", Logger: s.logger})
	s.srv = &http.Server{Handler: pool.Handler(s.authenticated, s), IdleTimeout: s.idle,
		ErrorLog: slog.NewLogLogger(s.logger.Handler(), slog.LevelDebug)}
	pool.Server(s.srv)
	lim := pool.Listener(ln)
	s.base = "http://" + ln.Addr().String()
	go func() {
		if err := s.srv.Serve(lim); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.logger.Warn("mcp-ask: the HTTP server stopped", "err", err)
		}
	}()
	return nil
}

// Close stops listening and drops every connection: a question still open
// is withdrawn (its socket connection closes with the request).
func (s *HTTP) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.listings = map[string]*listing{}
	if s.srv == nil {
		return nil
	}
	return s.srv.Close()
}

// ServeHTTP checks the listing's token, then hands the request to its MCP
// handler. A wrong path and a wrong token look the same: 401.
func (s *HTTP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l := s.listing(r)
	if l == nil {
		// Closed after the answer: a refused client keeps no connection.
		w.Header().Set("Connection", "close")
		w.Header().Set("WWW-Authenticate", `Bearer realm="askbridge"`)
		http.Error(w, "askbridge: this listing's bearer token is required", http.StatusUnauthorized)
		return
	}
	defer s.streams.serve(r)()
	l.handler.ServeHTTP(w, r)
}

// listing is the listing r's path names when r carries its token, else nil.
func (s *HTTP) listing(r *http.Request) *listing {
	tag, ok := strings.CutPrefix(r.URL.Path, PathPrefix)
	s.mu.Lock()
	l := s.listings[tag]
	s.mu.Unlock()
	if !ok || l == nil || !bearer(r, l.token) {
		return nil
	}
	return l
}

// authenticated says whether r carries the token of the listing it names.
func (s *HTTP) authenticated(r *http.Request) bool { return s.listing(r) != nil }

// bearer reports whether r carries "Authorization: Bearer token", compared
// in constant time.
func bearer(r *http.Request, token string) bool {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}
