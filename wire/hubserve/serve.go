package hubserve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/internal/hubpage"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/route/hub"
)

// Config is what the hub's flags say, checked.
type Config struct {
	Listen string      // --listen: the page's address
	TLS    *tls.Config // nil: plain HTTP
	Remote bool        // the page listens beyond loopback
	QR     bool        // --qr: a QR code of the pairing link, on loopback too
	// PublicURL (--public-url) and Taps give notifications answer buttons
	// that post to the page; either unset: none.
	PublicURL string
	Taps      *answertoken.Key
	// Routes are the hub's answer routes besides its own (Web Push, the
	// page and the inbox: table), as the flags set them (the notifiers),
	// started after those: the page's address and Taps are in their
	// route.Env.
	Routes         []route.Route
	InboxApprovals bool // --inbox-approvals
	BarePush       bool // --push-content none
	// MayPair says whether the process on a connection to the hub's socket
	// may have a pairing code or revoke a device, beyond what the hub checks
	// itself (this user's process, not under a connected askbridge): nil
	// adds nothing (docs/security.md).
	MayPair func(net.Conn) error
	Logger  *slog.Logger
	Stderr  io.Writer // the hub's terminal, where pairing codes show
}

// Error is the hub not starting: Code is the exit code (2: a flag's value
// or the hub's state, 1: a hub runs already, or the address is taken).
type Error struct {
	Code int
	Err  error
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Run serves the hub until ctx ends: the askbridges' socket and the
// inbox's, the page, the history, Web Push and the notifiers. It returns an
// *Error when the hub cannot start.
func Run(ctx context.Context, c Config) error {
	logger := c.Logger
	devices, err := openDevices(logger)
	if err != nil {
		return &Error{Code: 2, Err: err}
	}
	path := hub.SocketPath()
	sock, err := hub.Listen(path)
	if err != nil {
		return &Error{Code: 1, Err: listenError(path, err)}
	}
	defer sock.Close()
	ln, err := listenPage(c.Listen, logger) // the service manager's, else both loopbacks
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	board := permission.NewBoard()
	h := hub.New(board, logger)
	keepHistory(h, logger)
	keepDecisions(h, logger)
	if store, err := hub.OpenNotes(); err == nil {
		h.KeepLate(store) // a late answer given here after its askbridge left reaches the session's next prompt
	} else {
		logger.Warn("hub: a set answerable late is cancelled when its askbridge leaves: no notes store", "err", err)
	}
	show := &codeShower{stderr: c.Stderr, terminal: writesToTerminal(c.Stderr), qr: c.Remote || c.QR, publicURL: c.PublicURL, logger: logger}
	env := &route.Env{Ctx: ctx, Board: board, Logger: logger, Stderr: c.Stderr, Taps: c.Taps}
	people, err := route.Start(env, c.table(started{hub: h, board: board, page: ln, sock: sock, devices: devices, show: show}))
	if err != nil {
		stop()
		return &Error{Code: 2, Err: err}
	}
	defer func() { stop(); people.Close() }() // the pushes under way end before the hub
	h.Pair(hub.Pairing{Devices: devices, URL: show.pairURL(env.PairURL), Allow: c.MayPair})
	printWhere(c.Stderr, env.DeskURL, c.PublicURL, otherURLs(env.DeskURL, ln.Addr(), c.TLS))
	defer sayAlarms(c.Stderr, logger)
	defer hubpage.Keep(path, env.DeskURL)()
	show.atStart(env.PairURL, devices)
	logger.Info("hub: askbridges report on " + path)
	h.Serve(ctx, sock)
	return nil
}

// listenError says why the askbridges' socket is not the hub's: another
// hub has it (and where its page is), or what the system said.
func listenError(path string, err error) error {
	if !errors.Is(err, hub.ErrRunning) {
		return fmt.Errorf("cannot listen on %s: %v", path, err)
	}
	if where := hubpage.Read(path); where != "" {
		return fmt.Errorf("%v; its page is at %s", err, where)
	}
	return fmt.Errorf("%v; its page is where it said at start", err)
}
