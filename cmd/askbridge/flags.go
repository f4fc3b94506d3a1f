package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/internal/contain"
)

const usage = `askbridge makes an agent's questions work in every ACP client.

Usage:
  askbridge [flags] -- AGENT [ARGS...]   relay between the ACP client on stdio and AGENT
  askbridge ask '{"questions":[...]}'    ask the user (through a running askbridge, or in the terminal)
  askbridge demo [--desk ADDR]           a whole question round with a built-in agent and client
  askbridge replay [--update] FILE...    check recorded conformance fixtures against askbridge
  askbridge record-fixture IN [OUT]      turn a --record file or a Zed ACP log into a fixture
  askbridge hub                          one inbox (page and API) for the questions of every askbridge
  askbridge inbox [--watch | --json]     the hub's questions, answered in the terminal
  askbridge mcp                          the MCP server of the ask_user_question tool (askbridge lists it)
  askbridge help [SUBCOMMAND]            this text, or a subcommand's
  askbridge version                      the version (also --version)`

// usageNotes follow the usage in askbridge help, before the flags.
const usageNotes = `
Flags go before --: everything after it is the agent's command, untouched.
Durations take a unit: 90s, 10m, 1h30m.
--on-question, --notify and --notify-url get every event: asked, expiring
(shortly before --question-timeout), then answered, cancelled or timeout;
with --approvals mirror or desk also approval.asked, approval.expiring,
approval.answered, approval.cancelled and approval.timeout.
Docs: docs/flags.md and the rest of docs/ in askbridge's repository.`

// proxyOptions are the flags of the proxy.
type proxyOptions struct {
	logLevel        string
	logFile         string
	record          string
	grace           time.Duration
	contain         contain.Mode
	advertise       bool
	render          string
	questionTimeout time.Duration
	onTimeout       string
	maxRounds       int
	desk            string
	deskAllowRemote bool
	deskCustom      bool
	agentKind       string
	injectAsk       string
	onQuestion      string
	notify          bool
	notifyURL       string
	publicURL       string
	taps            *answertoken.Key // the hub's answer buttons' key, when --public-url is set
	maxLine         int
	hub             string
	version         bool
	approvals       adapter.Approvals
	approvalTimeout time.Duration
	questions       adapter.Questions
	minAnswerTime   time.Duration
	minAnswerErr    error // ASKBRIDGE_MIN_ANSWER_MS is not a number
	lateAnswers     adapter.LateAnswers
	mcpProgress     time.Duration

	// deskAllowRemoteHTTP: the desk beyond loopback over plain HTTP.
	deskAllowRemoteHTTP bool
}

func proxyFlags() (*flag.FlagSet, *proxyOptions) {
	o := &proxyOptions{}
	fs := flag.NewFlagSet("askbridge", flag.ContinueOnError)
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&o.logFile, "log-file", "", "append logs to this file instead of stderr")
	fs.StringVar(&o.record, "record", "", "append every message both ways to this JSONL file")
	fs.DurationVar(&o.grace, "grace", 2*time.Second, "how long the agent gets to exit after stdin closes, and after SIGTERM")
	fs.BoolVar(&o.advertise, "advertise", true, "advertise form elicitation to the agent when the client lacks it, so agents offer their question tools")
	fs.StringVar(&o.render, "render", "auto", "auto: as the client table says for the client (docs/clients.md), else forms to a client that renders them and permission requests to others; permission: always permission requests; yesno: a yes/no request per option, for clients that can only say yes or no")
	o.questionFlags(fs)
	o.lateFlags(fs)
	fs.DurationVar(&o.questionTimeout, "question-timeout", 0, "end a question set nobody answered after this long (0: wait for ever)")
	fs.StringVar(&o.onTimeout, "on-timeout", "cancel", "on a question timeout: cancel (the agent is told nobody answered in time), or recommended (the option marked (Recommended), else the first)")
	fs.Var(&o.approvals, "approvals", "where the agent's own permission requests are answered: client (the editor only, as they are), mirror (the editor, and the desk and notifiers too; the first answer wins), or desk (the desk only; for headless clients)")
	fs.DurationVar(&o.approvalTimeout, "approval-timeout", 0, "end an approval nobody answered after this long, as the agent's reject option (0: wait for ever); --question-timeout never ends one")
	fs.IntVar(&o.maxRounds, "max-rounds", 10, "question sets allowed per prompt turn (0: no limit)")
	fs.StringVar(&o.desk, "desk", "", "also serve the answer desk (HTTP API and web page) on this address, e.g. 127.0.0.1:0")
	fs.BoolVar(&o.deskAllowRemote, "desk-allow-remote", false, "let the desk listen on an address other than loopback (with --desk-allow-remote-http)")
	fs.BoolVar(&o.deskAllowRemoteHTTP, "desk-allow-remote-http", false, "with --desk-allow-remote, serve the desk beyond loopback over plain HTTP, on a network that is already encrypted (a tailnet, WireGuard): everything it serves travels in clear text")
	fs.BoolVar(&o.deskCustom, "desk-custom", true, "let the desk take typed answers that are not among a question's options")
	fs.StringVar(&o.agentKind, "agent-kind", adapter.KindAuto, "auto (recognise the agent from its command), opencode, or generic")
	fs.StringVar(&o.injectAsk, "inject-ask", "auto", "list askbridge's MCP ask tool (askbridge mcp) in each session: auto (for agents that cannot ask in a way askbridge handles, such as Gemini CLI), always, or never")
	o.notifyFlags(fs)
	o.containFlags(fs)
	fs.IntVar(&o.maxLine, "max-line", 0, "refuse a message longer than this many `BYTES` from either side with a JSON-RPC error (0: no limit)")
	fs.StringVar(&o.hub, "hub", "auto", "report questions to askbridge hub: auto (its usual socket, whenever a hub is there), off, or the socket's path")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	return fs, o
}

// proxyFlagSet is the proxy's flags, for help.
func proxyFlagSet() *flag.FlagSet {
	fs, _ := proxyFlags()
	return fs
}

// printUsage writes askbridge's usage with the proxy's flags.
func printUsage(w io.Writer, fs *flag.FlagSet) { cliflag.PrintUsage(w, fs, usage+"\n"+usageNotes) }

// check reports a flag value that makes no sense.
func (o *proxyOptions) check() error {
	switch {
	case o.onTimeout != "cancel" && o.onTimeout != "recommended":
		return fmt.Errorf("--on-timeout %q: want cancel or recommended", o.onTimeout)
	case o.questionTimeout < 0:
		return fmt.Errorf("--question-timeout %s: must not be negative", o.questionTimeout)
	case o.approvalTimeout < 0:
		return fmt.Errorf("--approval-timeout %s: must not be negative", o.approvalTimeout)
	case o.approvals == adapter.ApprovalsDesk && o.desk == "" && (o.hub == "auto" || o.hub == "off"):
		return deskOnly("approvals", o.hub)
	case o.maxRounds < 0:
		return fmt.Errorf("--max-rounds %d: must not be negative", o.maxRounds)
	case o.maxLine < 0:
		return fmt.Errorf("--max-line %d: must not be negative", o.maxLine)
	case adapter.CheckAgentKind(adapter.Dialects(), o.agentKind) != nil:
		return adapter.CheckAgentKind(adapter.Dialects(), o.agentKind)
	case o.injectAsk != "auto" && o.injectAsk != "always" && o.injectAsk != "never":
		return fmt.Errorf("--inject-ask %q: want auto, always or never", o.injectAsk)
	}
	if err := o.checkDesk(); err != nil {
		return err
	}
	if err := o.checkQuestions(); err != nil {
		return err
	}
	if err := o.checkLate(); err != nil {
		return err
	}
	return o.checkNotify()
}

// logger builds the slog logger the flags ask for. Logs never go to stdout:
// that is the protocol.
func (o *proxyOptions) logger(stderr io.Writer) (*slog.Logger, func(), error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return nil, nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", o.logLevel)
	}
	w, closer := stderr, func() {}
	if o.logFile != "" {
		f, err := os.OpenFile(o.logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		w, closer = f, func() { f.Close() }
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})), closer, nil
}

func (o *proxyOptions) recordFile() (io.Writer, func(), error) {
	if o.record == "" {
		return nil, func() {}, nil
	}
	f, err := os.OpenFile(o.record, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("--record: %w", err)
	}
	return f, func() { f.Close() }, nil
}
