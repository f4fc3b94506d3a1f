package inbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/askbridge/askbridge/route/prompt"
)

// Poll is how often the inbox looks for new sets, and whether the one it
// asks is still waiting.
const Poll = 300 * time.Millisecond

// Options say which hub the inbox asks, and where.
type Options struct {
	// HubSocket is the hub's socket; the inbox's is beside it
	// (hub.InboxPath).
	HubSocket string
	In        io.Reader // the answers: a terminal, or numbered lines piped
	Out       io.Writer
	// Watch keeps asking as sets arrive, until ctx ends.
	Watch bool
}

// PrintPending writes the sets waiting at the hub on hubSocket as indented
// JSON (GET /question).
func PrintPending(ctx context.Context, hubSocket string, w io.Writer) error {
	_, raw, err := newClient(hub.InboxPath(hubSocket)).pending(ctx)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	json.Indent(&out, raw, "", "  ")
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// Run asks every set waiting at the hub in the terminal, then, with
// o.Watch, each new one as it comes, until the input ends or ctx does. An
// unreachable hub is ErrNoHub.
func Run(ctx context.Context, o Options) error {
	c := newClient(hub.InboxPath(o.HubSocket))
	in := &eofReader{r: o.In}
	var p prompt.Prompter = prompt.NewPlain(in, o.Out)
	if f, ok := o.In.(*os.File); ok && prompt.IsTerminal(f) {
		p = prompt.NewTTY(f).SkipOnEsc()
	}
	ib := &inbox{c: c, p: p, in: in, out: o.Out, skipped: map[string]time.Time{}, told: map[string]bool{}, hubSocket: o.HubSocket}
	ib.home, _ = os.UserHomeDir()
	var err error
	if ib.rules, err = c.rules(ctx); err != nil {
		return err
	}
	if err := ib.run(ctx, o.Watch); err != nil && ctx.Err() == nil {
		return err
	}
	return nil
}

// inbox asks the hub's sets in the terminal.
type inbox struct {
	c       *client
	p       prompt.Prompter
	in      *eofReader
	out     io.Writer
	home    string
	skipped map[string]time.Time // sets skipped (Esc), when: --watch asks again after skipAgain
	watch   bool
	rules   Rules           // what the hub lets the inbox answer
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
		case <-time.After(Poll):
		}
	}
	return nil
}

// ask asks one set's step in the terminal and answers it at the hub. The
// prompt is withdrawn when the set is answered elsewhere meanwhile.
func (ib *inbox) ask(ctx context.Context, s Set) error {
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
	res, err := permission.Ask(askCtx, prompt.Peer{Prompter: ib.p}, permission.Request{SessionID: "inbox", ToolCallID: "inbox-" + s.ID, Questions: qs, Round: 1})
	switch {
	case ctx.Err() != nil:
		return nil
	case errors.As(context.Cause(askCtx), new(*prompt.Withdrawn)):
		if _, said := ib.p.(*prompt.TTY); !said { // the TTY says it where the question was
			fmt.Fprintln(ib.out, context.Cause(askCtx).(*prompt.Withdrawn).Why)
		}
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
	if err == nil {
		// Said, or the last answer of a run ends the inbox in silence.
		fmt.Fprintln(ib.out, sentLine(s, ib.home))
	}
	return err
}

// watchGone ends ctx once set s is no longer waiting at its step.
func (ib *inbox) watchGone(ctx context.Context, cancel context.CancelCauseFunc, s Set) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(Poll):
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
			cancel(&prompt.Withdrawn{Why: ib.ended(ctx, s)})
			return
		}
	}
}

func (ib *inbox) heading(s Set) string {
	h := "── " + s.origin(ib.home)
	if s.Kind == permission.KindApproval {
		h += " · approval"
		if s.Instance != nil && s.Instance.Uncontained != "" {
			h += " · ⚠ " + s.Instance.Uncontained // said where the user decides
		}
	}
	if m := s.mode(); m != "" {
		h += " · " + m
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

// mode names the set's session mode in the agent's words, marked when the
// agent runs tools in it without asking, as the page's cards do.
func (s Set) mode() string {
	if s.Instance == nil || s.Instance.Mode == nil || s.Instance.Mode.ID == "" {
		return ""
	}
	m := s.Instance.Mode
	name := m.Name
	if name == "" {
		name = m.ID
	}
	if m.Unasked != "" {
		return "⚠ " + m.Unasked
	}
	return name + " mode"
}
