package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/wire/hubctl"
	"github.com/askbridge/askbridge/wire/hubserve"
)

func init() {
	subcommands["hub"] = runHub
}

const hubUsage = `Usage: askbridge hub [--listen 127.0.0.1:7683] [--tls-cert FILE --tls-key FILE | --allow-remote-http] [--qr]
                     [--notify] [--notify-url URL] [--on-question CMD] [--public-url URL] [--push-content none]
       askbridge hub pair | devices | revoke ID | key
       askbridge hub log [--json] [-n N]

One page for every agent: every askbridge of this user reports its
questions to the hub (unless run with --hub off), and the hub's page, the
desk's, shows and answers them all, each with its agent and folder.

The askbridges find the hub on a Unix socket: $ASKBRIDGE_HUB, else
hub.sock in askbridge's folder for sockets: $XDG_RUNTIME_DIR/askbridge
when $XDG_RUNTIME_DIR is yours alone, else $TMPDIR/askbridge on macOS,
else ~/.cache/askbridge (the user's cache folder).

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

At every start the hub prints its key's fingerprint and the devices it
trusts. It refuses a key it did not make (one another program wrote
while no hub ran) until told, with --trust-key, the fingerprint it shows.

The notifier flags are the proxy's, set here once for every agent.
--print-unit prints a systemd user socket unit, which holds the page's port
while the hub is down, and the service that starts the hub with the other
flags given at login (a launchd agent on macOS; docs/desk-and-hub.md).`

// runHub is `askbridge hub`.
func runHub(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sub := hubDeviceCommand(args[0]); sub != nil {
			return sub(args[1:], stdout, stderr)
		}
	}
	fs := flag.NewFlagSet("askbridge hub", flag.ContinueOnError)
	var where hubserve.Listen
	where.Flags(fs)
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	// The notifiers, set once here for every agent; --public-url is the
	// hub's page as a phone reaches it.
	notifyOpts := &proxyOptions{}
	notifyOpts.notifyFlags(fs)
	inboxApprovals := fs.Bool("inbox-approvals", false, "let `askbridge inbox` answer the agents' tool approvals too, not only questions: weaker than a passkey (see docs/security.md)")
	pushContent := fs.String("push-content", "question", "what a Web Push carries: `question` (its first question or the command, the choices, the agent and folder) or none (only that something waits; the page shows it when opened)")
	trustKey := fs.String("trust-key", "", "trust the hub's key that has this `FINGERPRINT` although this hub did not make it (it says so at start, and refuses the key until told)")
	printUnit := fs.Bool("print-unit", false, "print a systemd user socket unit holding the page's port and the service that starts the hub with these flags at login (a launchd agent on macOS), and exit")
	if code, done := cliflag.Parse(fs, hubUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "askbridge hub: unexpected argument %q\n%s\n", fs.Arg(0), hubUsage)
		return 2
	}
	if *printUnit {
		if _, _, err := where.Check(); err != nil { // no unit that cannot start
			fmt.Fprintln(stderr, "askbridge hub:", err)
			return 2
		}
		return printHubUnit(fs, stdout, stderr)
	}
	if *pushContent != "question" && *pushContent != "none" {
		fmt.Fprintf(stderr, "askbridge hub: --push-content %q: want question or none\n", *pushContent)
		return 2
	}
	if hubctl.RefusedInside("askbridge hub", stderr) {
		return 1
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(stderr, "askbridge hub: --log-level %q: want debug, info, warn or error\n", *logLevel)
		return 2
	}
	remote, tlsConfig, err := where.Check()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	if remote && tlsConfig == nil {
		hubserve.WarnClearText(stderr, where.Addr)
	}
	notifyOpts.desk = where.Addr // the answer buttons post to the hub's page
	if err := notifyOpts.checkNotify(); err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	if notifyOpts.publicURL != "" {
		notifyOpts.taps = answertoken.New()
	}
	if err := hubctl.Anchors(*trustKey, stderr); err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	err = hubserve.Run(ctx, hubserve.Config{Listen: where.Addr, TLS: tlsConfig, Remote: remote, QR: where.QR,
		PublicURL: notifyOpts.publicURL, Taps: notifyOpts.taps, Routes: []route.Route{notifyOpts.notifyRoute(logger)},
		InboxApprovals: *inboxApprovals, BarePush: *pushContent == "none", Logger: logger, Stderr: stderr})
	var failed *hubserve.Error
	if errors.As(err, &failed) {
		fmt.Fprintln(stderr, "askbridge hub:", failed.Err)
		return failed.Code
	}
	return 0
}
