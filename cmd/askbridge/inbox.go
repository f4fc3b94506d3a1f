package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/internal/peercred"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/askbridge/askbridge/route/inbox"
)

func init() { subcommands["inbox"] = runInbox }

const inboxUsage = `Usage: askbridge inbox [--watch | --json] [--hub SOCKET]

The terminal's view of askbridge hub: asks what waits across every agent,
one set after another, each named by agent, folder and editor, and answers
it at the hub (the first answer wins; the editor's request is withdrawn).
On a terminal you answer with arrows, Space and Enter (Esc skips a set: it
keeps waiting); piped, with numbered answers, one line per question (0 then
a line of text for Other). --watch keeps asking as sets arrive, a tmux pane
as the inbox, and offers a skipped set again a minute later; --json prints
the sets waiting and exits. A set that ends elsewhere while asked says how:
answered or cancelled, and where.

The inbox reaches the hub on its own Unix socket beside the hub's
(hub.inbox.sock), with no token: the hub asks the system who is calling, and
answers only this user's processes outside every agent's process tree. It
takes questions; an agent's tool approval only when the hub was started with
--inbox-approvals: otherwise the inbox shows the approval and says where to
answer it (the hub's page, with a passkey, or the editor), and offers no
choice. Linux and macOS only.`

// runInbox is `askbridge inbox` (route/inbox).
func runInbox(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge inbox", flag.ContinueOnError)
	hubPath := fs.String("hub", "", "the hub's `socket` (default: $ASKBRIDGE_HUB, else the usual one); the inbox's is beside it")
	asJSON := fs.Bool("json", false, "print the sets waiting as JSON (GET /question) and exit")
	watch := fs.Bool("watch", false, "keep asking as sets arrive, until interrupted")
	if code, done := cliflag.Parse(fs, inboxUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 || *asJSON && *watch {
		fmt.Fprintf(stderr, "askbridge inbox: --json and --watch do not go together, and no argument is taken\n%s\n", inboxUsage)
		return 2
	}
	if !peercred.Supported {
		fmt.Fprintln(stderr, "askbridge inbox: not on this system: the hub cannot tell which process calls it here; answer on the hub's page")
		return 1
	}
	ctx, stop := stopContext(context.Background())
	defer stop()
	socket := cmp.Or(*hubPath, hub.SocketPath())
	var err error
	if *asJSON {
		err = inbox.PrintPending(ctx, socket, stdout)
	} else {
		err = inbox.Run(ctx, inbox.Options{HubSocket: socket, In: stdin, Out: stdout, Watch: *watch})
	}
	if err != nil {
		return inboxFailed(stderr, err)
	}
	return 0
}

func inboxFailed(stderr io.Writer, err error) int {
	if errors.Is(err, inbox.ErrNoHub) {
		fmt.Fprintf(stderr, "askbridge inbox: %v: start one with `askbridge hub` (or pass its socket with --hub)\n", err)
	} else {
		fmt.Fprintln(stderr, "askbridge inbox:", err)
	}
	return 1
}
