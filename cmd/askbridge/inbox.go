package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/peercred"
	"github.com/askbridge/askbridge/internal/prompt"
	"github.com/askbridge/askbridge/permission"
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

// inboxPoll is how often the inbox looks for new sets, and whether the
// one it asks is still waiting.
const inboxPoll = 300 * time.Millisecond

// runInbox is `askbridge inbox`.
func runInbox(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge inbox", flag.ContinueOnError)
	hubPath := fs.String("hub", "", "the hub's `socket` (default: $ASKBRIDGE_HUB, else the usual one); the inbox's is beside it")
	asJSON := fs.Bool("json", false, "print the sets waiting as JSON (GET /question) and exit")
	watch := fs.Bool("watch", false, "keep asking as sets arrive, until interrupted")
	if code, done := parseFlags(fs, inboxUsage, args, stdout, stderr); done {
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
	c := newHubClient(hub.InboxPath(cmp.Or(*hubPath, hub.SocketPath())))
	if *asJSON {
		_, raw, err := c.pending(ctx)
		if err != nil {
			return inboxFailed(stderr, err)
		}
		var out bytes.Buffer
		json.Indent(&out, raw, "", "  ")
		out.WriteByte('\n')
		stdout.Write(out.Bytes())
		return 0
	}
	in := &eofReader{r: stdin}
	var p prompt.Prompter = prompt.NewPlain(in, stdout)
	if f, ok := stdin.(*os.File); ok && prompt.IsTerminal(f) {
		p = prompt.NewTTY(f).SkipOnEsc()
	}
	ib := &inbox{c: c, p: p, in: in, out: stdout, skipped: map[string]time.Time{}, told: map[string]bool{}}
	ib.hubSocket = cmp.Or(*hubPath, hub.SocketPath())
	ib.home, _ = os.UserHomeDir()
	var err error
	if ib.rules, err = c.rules(ctx); err != nil {
		return inboxFailed(stderr, err)
	}
	if err := ib.run(ctx, *watch); err != nil && ctx.Err() == nil {
		return inboxFailed(stderr, err)
	}
	return 0
}

func inboxFailed(stderr io.Writer, err error) int {
	if errors.Is(err, errNoHub) {
		fmt.Fprintf(stderr, "askbridge inbox: %v: start one with `askbridge hub` (or pass its socket with --hub)\n", err)
	} else {
		fmt.Fprintln(stderr, "askbridge inbox:", err)
	}
	return 1
}

// inbox asks the hub's sets in the terminal.
type inbox struct {
	c       *hubClient
	p       prompt.Prompter
	in      *eofReader
	out     io.Writer
	home    string
	skipped map[string]time.Time // sets skipped (Esc), when: --watch asks again after skipAgain
	watch   bool
	rules   inboxRules      // what the hub lets the inbox answer
	told    map[string]bool // approvals shown, which the inbox may not answer
	// hubSocket is the hub's socket, beside which it says where its page is.
	hubSocket string
}

// run asks every set waiting, then, with watch, each new one as it
// comes, until the input ends or ctx does.
func (ib *inbox) run(ctx context.Context, watch bool) error {
	ib.watch = watch
	idle, any := false, false
	for ctx.Err() == nil {
		sets, _, err := ib.c.pending(ctx)
		if err != nil {
			return err
		}
		if s, ok := ib.next(sets, watch); ok {
			idle, any = false, true
			if err := ib.ask(ctx, s); err != nil {
				return err
			}
			if ib.in.eof.Load() {
				return nil
			}
			continue // the list again: what was answered may bring a next step
		}
		if !watch {
			if !any {
				fmt.Fprintln(ib.out, "Nothing waits.")
			}
			return nil
		}
		if !idle {
			fmt.Fprintln(ib.out, "Waiting for questions (Ctrl-C to stop)…")
			idle = true
		}
		select {
		case <-ctx.Done():
		case <-time.After(inboxPoll):
		}
	}
	return nil
}

// ask asks one set's step in the terminal and answers it at the hub. The
// prompt is withdrawn when the set is answered elsewhere meanwhile.
func (ib *inbox) ask(ctx context.Context, s inboxSet) error {
	if !ib.mayAnswer(s) {
		ib.showApproval(s)
		return nil
	}
	fmt.Fprintf(ib.out, "\n%s\n", ib.heading(s))
	if ok, err := ib.take(ctx, s); !ok {
		return err
	}
	askCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go ib.watchGone(askCtx, cancel, s)
	go ib.renew(askCtx, s.ID)
	qs := s.questions()
	res, err := permission.Ask(askCtx, localPeer{ib.p}, permission.Request{SessionID: "inbox", ToolCallID: "inbox-" + s.ID, Questions: qs, Round: 1})
	switch {
	case ctx.Err() != nil:
		return nil
	case errors.Is(context.Cause(askCtx), errAnsweredElsewhere):
		fmt.Fprintln(ib.out, ib.ended(ctx, s))
		return nil
	case err != nil:
		return err
	case res.Cancelled:
		ib.skipped[s.ID] = time.Now()
		if !ib.in.eof.Load() {
			fmt.Fprintln(ib.out, ib.skippedLine())
		}
		return nil
	}
	answers, reason := s.answersOf(res, len(qs))
	status, err := ib.c.reply(ctx, s.ID, s.Step, answers, reason)
	if status == 404 || status == 409 {
		fmt.Fprintln(ib.out, "Not taken: "+ib.ended(ctx, s))
		return nil
	}
	return err
}

var errAnsweredElsewhere = errors.New("answered elsewhere")

// watchGone ends ctx once set s is no longer waiting at its step.
func (ib *inbox) watchGone(ctx context.Context, cancel context.CancelCauseFunc, s inboxSet) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(inboxPoll):
		}
		sets, _, err := ib.c.pending(ctx)
		if err != nil {
			continue // the hub restarting: the prompt stays
		}
		gone := true
		for _, o := range sets {
			if o.ID == s.ID && o.Step == s.Step {
				gone = false
			}
		}
		if gone {
			cancel(errAnsweredElsewhere)
			return
		}
	}
}

func (ib *inbox) heading(s inboxSet) string {
	h := "── " + s.origin(ib.home)
	if s.Kind == permission.KindApproval {
		h += " · approval"
	}
	if s.Claim != nil && s.Claim.Device != "inbox" {
		h += " · being answered on " + s.Claim.Name
	}
	return h
}

// eofReader says when the piped answers have run out, so that the inbox
// stops instead of skipping every set left.
type eofReader struct {
	r   io.Reader
	eof atomic.Bool
}

func (e *eofReader) Read(b []byte) (int, error) {
	n, err := e.r.Read(b)
	if err == io.EOF {
		e.eof.Store(true)
	}
	return n, err
}
