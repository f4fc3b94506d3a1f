package hub

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/askbridge/askbridge/internal/peercred"
	"github.com/askbridge/askbridge/internal/proctree"
	"github.com/askbridge/askbridge/permission"
)

// The terminal inbox (askbridge inbox) reaches the hub on a Unix socket of
// its own beside the hub's, never over TCP, and carries no secret: the
// kernel says who is calling (peercred). The hub lets in only this user's
// processes (at accept), and answers a request only from a process outside
// every agent's process tree (each request): below an askbridge connected
// to the hub, or below a process running the hub's own executable (an
// askbridge with --hub off, or one not yet reconnected after a restart).
// It is a socket of its own so that an `ssh -R` forward of the hub's
// socket, which remote agents reach, gives them no way to answer.

// InboxPath is the inbox's socket beside the hub's at path: hub.sock ->
// hub.inbox.sock.
func InboxPath(path string) string {
	return strings.TrimSuffix(path, ".sock") + ".inbox.sock"
}

// InboxOptions say what the inbox may do.
type InboxOptions struct {
	// Approvals lets the inbox answer the agents' own tool approvals
	// (--inbox-approvals): without it, only questions. A terminal has no
	// passkey; what vouches for the caller is the process tree alone.
	Approvals bool
}

// listenInbox opens the inbox's socket (0600) in the hub's checked
// folder, the hub's lock held: a socket left there is a crashed hub's.
func listenInbox(path string) (*net.UnixListener, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("removing the stale socket %s: %w", path, err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// ServeInbox serves api (the page's API with no credential check of its
// own: desk.LocalHandler) on ln.Inbox until ctx ends: GET /question, and
// POST /question/{id}/reply for a question (an approval with
// opts.Approvals only), to this user's processes outside the agents'
// trees. It returns at once; nil ln.Inbox serves nothing.
func (h *Hub) ServeInbox(ctx context.Context, ln *Listener, api http.Handler, opts InboxOptions) {
	if ln.Inbox == nil {
		return
	}
	mux := http.NewServeMux()
	mux.Handle("GET /question", api)
	mux.Handle("GET /api/session/{id}/history", api) // how a set the inbox was asking ended
	mux.HandleFunc("GET /inbox", func(w http.ResponseWriter, r *http.Request) {
		// What the inbox may answer, so that it offers nothing refused.
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"approvals\":%t}\n", opts.Approvals)
	})
	// What the hub checked of every caller that gets this far (outsideAgents),
	// and the user's leave to approve when given: what the board's gate weighs.
	inbox := permission.By{Route: permission.RouteInbox, Proof: permission.ProofPeer}
	if opts.Approvals {
		inbox.Proof |= permission.ProofLeave
	}
	api = vouch(api, inbox.Proof)
	answers := func(w http.ResponseWriter, r *http.Request) {
		// Refused here too, before the page's API, so that the inbox never
		// claims (holds) what the gate will not let it answer.
		if p, ok := h.board.Get(r.PathValue("id")); ok {
			if err := permission.Gate(p, inbox); err != nil {
				msg := err.Error()
				if errors.Is(err, permission.ErrPresence) {
					msg += " (or start the hub with --inbox-approvals)"
				}
				inboxRefuse(w, http.StatusForbidden, msg)
				return
			}
		}
		api.ServeHTTP(w, r)
	}
	mux.HandleFunc("POST /question/{id}/reply", answers)
	mux.HandleFunc("POST /question/{id}/hold", answers) // the inbox claims what it asks (desk.ClaimFor)
	srv := &http.Server{
		Handler:           h.outsideAgents(mux),
		ReadHeaderTimeout: 2 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      10 * time.Second,
		IdleTimeout:       30 * time.Second,
		ErrorLog:          slog.NewLogLogger(h.logger.Handler(), slog.LevelDebug),
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if pc, ok := c.(*peerConn); ok { // the TLS handshake comes with the first read, in the connection's goroutine
				return context.WithValue(ctx, credKey{}, pc.cred)
			}
			return ctx
		},
	}
	h.logger.Info("hub: the terminal inbox (askbridge inbox) on "+ln.Inbox.Addr().String(), "approvals", opts.Approvals)
	go srv.Serve(&peerListener{UnixListener: ln.Inbox, tls: ln.tlsInbox, logger: h.logger})
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
}

// outsideAgents answers only a caller outside every agent's process tree.
func (h *Hub) outsideAgents(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cred, _ := r.Context().Value(credKey{}).(peercred.Cred)
		if err := h.outside(cred.PID); err != nil {
			h.logger.Warn("hub: refused the inbox", "err", err)
			inboxRefuse(w, http.StatusForbidden, "refused: "+err.Error()+": only the user answers, not the agent")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// outside says why pid is not known to be outside every agent's tree
// (nil: it is).
func (h *Hub) outside(pid int) error {
	if pid <= 0 {
		return errors.New("the system does not say which process is calling")
	}
	inside, err := proctree.Descends(pid, func(p int) bool {
		return h.askbridges.has(p) || p != pid && p != os.Getpid() && mayBeAskbridge(p)
	})
	switch {
	case err != nil:
		return fmt.Errorf("process %d is not known to be outside the agents' process trees (%v)", pid, err)
	case inside:
		return fmt.Errorf("process %d runs below an askbridge, inside an agent's process tree", pid)
	}
	return nil
}

// vouch tells the page's API (desk.LocalHandler) what the hub checked of
// each caller.
func vouch(api http.Handler, proof permission.Proof) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.ServeHTTP(w, r.WithContext(permission.Vouch(r.Context(), proof)))
	})
}

func inboxRefuse(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	fmt.Fprintf(w, "{\"error\":%q,\"status\":%d}\n", msg, status)
}

// credKey is the context key of a connection's credentials.
type credKey struct{}

// peerConn is an inbox connection, TLS of the hub's key over the socket,
// with its peer's credentials.
type peerConn struct {
	*tls.Conn
	cred peercred.Cred
}

// peerListener accepts this user's processes only, and proves the hub's
// key to them (TLS).
type peerListener struct {
	*net.UnixListener
	tls    *tls.Config
	logger *slog.Logger
}

func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			return nil, err
		}
		cred, err := checkPeer(c)
		if err == nil {
			return &peerConn{Conn: tls.Server(c, l.tls), cred: cred}, nil
		}
		l.logger.Warn("hub: refused an inbox connection", "err", err)
		c.Close()
	}
}
