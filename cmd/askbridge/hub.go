package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/signal"
	"syscall"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/internal/desk"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/hubpage"
	"github.com/askbridge/askbridge/internal/notify"
	"github.com/askbridge/askbridge/permission"
)

func init() {
	subcommands["hub"] = runHub
}

const hubUsage = `Usage: askbridge hub [--listen 127.0.0.1:7683] [--tls-cert FILE --tls-key FILE | --allow-remote-http] [--qr]
                     [--notify] [--notify-url URL] [--on-question CMD] [--public-url URL]
       askbridge hub pair | devices | revoke ID | key
       askbridge hub log [--json] [-n N]

One page for every agent: every askbridge of this user reports its
questions to the hub (unless run with --hub off), and the hub's page, the
desk's, shows and answers them all, each with its agent and folder.

The askbridges find the hub on a Unix socket: $ASKBRIDGE_HUB, else
$XDG_RUNTIME_DIR/askbridge/hub.sock, else askbridge-UID/hub.sock in the
temporary folder.

A browser uses the page once paired: the hub shows a pairing code on its
own terminal (a link and, with --qr, a QR code too), good once for 5
minutes; askbridge hub pair prints a new one, askbridge hub devices lists
the paired devices and askbridge hub revoke ID unpairs one. Approving an
agent's tool call at the page takes the device's passkey (docs/security.md).

For a phone on the same tailnet or LAN, --listen beyond loopback (e.g.
0.0.0.0:7683, or the tailnet address) serves the page over HTTPS with
--tls-cert and --tls-key (e.g. from tailscale cert), or over plain HTTP
with --allow-remote-http on a network that is already encrypted, with a
warning at every start that sessions travel in clear text. On its terminal
the hub then prints a QR code of the pairing link for the phone's camera;
--qr prints it on loopback too, of --public-url's address; never of an
address only this machine opens (localhost, a loopback IP).

The notifier flags are the proxy's, set here once for every agent.
--print-unit prints a systemd user unit (a launchd agent on macOS) that
starts the hub with the other flags given at login.`

// defaultHubListen is a fixed port, so that the hub's address can be
// bookmarked.
const defaultHubListen = "127.0.0.1:7683"

// runHub is `askbridge hub`.
func runHub(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sub := hubDeviceCommand(args[0]); sub != nil {
			return sub(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("askbridge hub", flag.ContinueOnError)
	var where hubListen
	where.flags(fs)
	listen := &where.addr
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	// The notifiers, set once here for every agent; --public-url is the
	// hub's page as a phone reaches it.
	notifyOpts := &proxyOptions{}
	notifyOpts.notifyFlags(fs)
	inboxApprovals := fs.Bool("inbox-approvals", false, "let `askbridge inbox` answer the agents' tool approvals too, not only questions: weaker than a passkey (see docs/security.md)")
	printUnit := fs.Bool("print-unit", false, "print a systemd user unit (a launchd agent on macOS) that starts the hub with these flags at login, and exit")
	if code, done := parseFlags(fs, hubUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "askbridge hub: unexpected argument %q\n%s\n", fs.Arg(0), hubUsage)
		return 2
	}
	if *printUnit {
		if _, _, err := where.check(); err != nil { // no unit that cannot start
			fmt.Fprintln(stderr, "askbridge hub:", err)
			return 2
		}
		return printHubUnit(fs, stdout, stderr)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "askbridge hub: --log-level %q: want debug, info, warn or error\n", *logLevel)
		return 2
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	remote, tlsConfig, err := where.check()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	if remote && tlsConfig == nil {
		warnClearText(stderr, *listen)
	}
	notifyOpts.desk = *listen // the answer buttons post to the hub's page
	if err := notifyOpts.checkNotify(); err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	if notifyOpts.publicURL != "" {
		notifyOpts.taps = answertoken.New()
	}
	devices, err := openDevices(logger)
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	path := hub.SocketPath()
	sock, err := hub.Listen(path)
	if err != nil {
		if errors.Is(err, hub.ErrRunning) {
			if where := hubpage.Read(path); where != "" {
				fmt.Fprintf(stderr, "askbridge hub: %v; its page is at %s\n", err, where)
			} else {
				fmt.Fprintf(stderr, "askbridge hub: %v; its page is where it said at start\n", err)
			}
		} else {
			fmt.Fprintf(stderr, "askbridge hub: cannot listen on %s: %v\n", path, err)
		}
		return 1
	}
	defer sock.Close()
	ln, err := desk.ListenTCP(*listen) // both loopbacks, as localhost
	if err != nil {
		fmt.Fprintf(stderr, "askbridge hub: --listen %s: the address is taken (another hub's page, or another program): pick another with --listen\n", *listen)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	board := permission.NewBoard()
	h := hub.New(board, logger)
	keepHistory(h, logger)
	keepDecisions(h, logger)
	show := &codeShower{stderr: stderr, terminal: writesToTerminal(stderr), qr: remote || where.qr, publicURL: notifyOpts.publicURL, logger: logger}
	routes, pushed := startPush(ctx, h, board, devices, logger)
	defer func() { stop(); pushed() }() // the pushes under way end before the hub
	routes["GET /instance"], routes["GET /api/decisions"] = h.ServeInstances, h.ServeDecisions
	page := desk.New(ln, board, desk.Options{Hub: true, Devices: devices, ShowCode: show.show, Logger: logger, Origin: h.Origin,
		Routes: routes,
		Taps:   notifyOpts.taps, PublicURL: notifyOpts.publicURL,
		AllowRemote: remote, TLS: tlsConfig, Addr: pageAddr(ln.Addr(), tlsConfig), Key: sock.Key})
	defer page.Close()
	h.ServeInbox(ctx, sock, page.LocalHandler(), hub.InboxOptions{Approvals: *inboxApprovals})
	notifier, err := notify.Start(board, notifyOpts.notifyOptions(page.URL(), logger))
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	defer notifier.Close()
	h.Pair(hub.Pairing{Devices: devices, URL: show.pairURL(page), Allow: mayPair})
	printWhere(stderr, page.URL(), notifyOpts.publicURL, otherURLs(page.URL(), ln.Addr(), tlsConfig))
	defer hubpage.Keep(path, page.URL())()
	show.atStart(page, devices)
	logger.Info("hub: askbridges report on " + path)
	h.Serve(ctx, sock)
	return 0
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// keepHistory gives the hub its history file; without one (an unreadable
// file, no folder for it) the hub runs with a history of this run only.
func keepHistory(h *hub.Hub, logger *slog.Logger) {
	path, err := hub.HistoryPath()
	if err == nil {
		var store *hub.Store
		if store, err = hub.OpenStore(path, logger); err == nil {
			h.Keep(store)
			return
		}
	}
	logger.Warn("hub: the history will not outlive this run", "err", err)
}
