package relay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// RunConfig is what Run needs to put askbridge between a client and an agent.
type RunConfig struct {
	Command []string  // the agent and its arguments
	Env     []string  // added to the agent's environment
	Stdin   io.Reader // from the client
	Stdout  io.Writer // to the client: protocol only
	Stderr  io.Writer // the agent's stderr goes here
	Record  io.Writer // when non-nil, every line both ways as JSONL
	Logger  *slog.Logger
	// Grace is how long the agent gets after its stdin closes, and again
	// after SIGTERM, before the next step. Zero means 2s.
	Grace time.Duration
	// MaxLine, when positive, is the longest line askbridge takes from
	// either side, in bytes (see Config).
	MaxLine int
	// Setup installs interceptors on the relay before it starts, and may
	// return a func that Run calls once, before it stops the agent and
	// before it returns: the bridge's, which cancels every question in
	// flight and waits (bounded) for each asker to get its cancel.
	Setup func(*Relay) (cleanup func())
	// Contain, when non-nil, starts the agent in a container of its own
	// (see Container); without one, or where it refuses, the agent runs
	// uncontained and Run says so once in the log.
	Contain Container
	// Started, when non-nil, is told of the agent once it runs (whether it
	// is contained: Agent.Uncontained).
	Started func(*Agent)
}

// AgentExitError reports that the agent ended while the client was still
// connected.
type AgentExitError struct {
	Err error // the exit status; nil for a clean exit
}

func (e *AgentExitError) Error() string {
	if e.Err == nil {
		return "agent exited"
	}
	return "agent exited: " + e.Err.Error()
}

// ExitCode is the code askbridge exits with: the agent's, or 1.
func (e *AgentExitError) ExitCode() int {
	var ee *exec.ExitError
	if errors.As(e.Err, &ee) && ee.ExitCode() > 0 {
		return ee.ExitCode()
	}
	return 1
}

// Run starts the agent and relays until the client closes its input (nil),
// ctx ends (ctx's error), or the agent exits (*AgentExitError). Either way
// the agent is stopped and no client request is left unanswered.
func Run(ctx context.Context, cfg RunConfig) error {
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	grace := cfg.Grace
	if grace == 0 {
		grace = 2 * time.Second
	}
	agent, err := StartContained(cfg.Command, cfg.Env, cfg.Stderr, cfg.Contain)
	if err != nil {
		// Said at once, as a sentence: a user who ran askbridge by hand
		// should not wait for the client's requests to be answered first.
		if cfg.Stderr != nil {
			fmt.Fprintf(cfg.Stderr, "askbridge: %v\n", err)
		}
		answerWithError(cfg.Stdin, cfg.Stdout, Internal("askbridge: "+err.Error(), nil), logger)
		return err
	}
	logger.Info("agent started", "command", cfg.Command, "pid", agent.Pid(), "contained", agent.Uncontained() == nil)
	logContainment(logger, agent)
	if cfg.Started != nil {
		cfg.Started(agent)
	}
	relay := New(Config{
		ClientIn: cfg.Stdin, ClientOut: cfg.Stdout,
		AgentIn: agent.Stdout, AgentOut: agent.Stdin,
		Record: cfg.Record, Logger: logger, MaxLine: cfg.MaxLine,
	})
	cleanup := func() {}
	if cfg.Setup != nil {
		if c := cfg.Setup(relay); c != nil {
			cleanup = sync.OnceFunc(c)
		}
	}
	relay.Start()
	stopFlusher := flushRecording(relay)
	defer func() {
		stopFlusher()
		cleanup()
		relay.Flush()
	}()

	select {
	case <-relay.ClientDone():
		logger.Info("client closed its input; stopping the agent")
		cleanup()
		relay.Flush()
		agent.Stop(grace)
		return nil
	case <-ctx.Done():
		logger.Info("stopping", "reason", context.Cause(ctx))
		cleanup()
		relay.Flush()
		agent.Stop(grace)
		return ctx.Err()
	case <-relay.AgentDone():
		// Its output ended; give the process a moment to report its status.
		if !agent.waitFor(grace) {
			agent.Stop(grace)
		}
	case <-agent.Done():
		// Read what it wrote before exiting, then report.
		select {
		case <-relay.AgentDone():
		case <-time.After(grace):
		}
	}
	agent.reap(grace)
	exit := &AgentExitError{Err: agent.Err()}
	relay.FailPending(crashError(exit, agent.StderrTail(200*time.Millisecond)))
	cleanup()
	return exit
}

// crashError is what the client's pending requests get when the agent has
// gone: the exit status and, since an editor may show nothing else of it,
// the agent's last stderr lines (also in data.agentStderr).
func crashError(exit *AgentExitError, tail []string) *Error {
	msg := "askbridge: the " + exit.Error()
	if len(tail) == 0 {
		return Internal(msg, nil)
	}
	return Internal(msg+". Its last stderr lines:\n"+strings.Join(tail, "\n"), agentStderr{tail})
}

// flushRecording writes the recording out every 200ms, so a crash loses
// little of it.
func flushRecording(r *Relay) (stop func()) {
	if r.rec == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				r.rec.flush()
			case <-done:
				return
			}
		}
	}()
	return func() { close(done) }
}

// answerWithError is what askbridge does when there is no agent to relay
// to: it answers the client's requests with e so the editor can show why,
// until the client closes its input or a short while has passed.
func answerWithError(in io.Reader, out io.Writer, e *Error, logger *slog.Logger) {
	if in == nil || out == nil {
		return
	}
	client := newPeer("client", AgentToClient, newLineWriter(out), nil)
	answered := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		lr := newLineReader(in)
		for {
			line, err := lr.next()
			if err != nil {
				return
			}
			h, err := scan(line)
			if err != nil || !h.isRequest() {
				continue
			}
			client.ReplyError(append([]byte(nil), h.id...), e)
			select {
			case answered <- struct{}{}:
			default:
			}
		}
	}()
	overall := time.NewTimer(10 * time.Second)
	defer overall.Stop()
	select {
	case <-done:
	case <-overall.C:
	case <-answered:
		// Let a client that sends several requests at once have them all answered.
		select {
		case <-done:
		case <-time.After(500 * time.Millisecond):
		}
	}
	logger.Debug(fmt.Sprintf("answered the client with: %s", e.Message))
}

// agentStderr is the data of the error a crashed agent's requests get.
type agentStderr struct {
	Lines []string `json:"agentStderr"`
}
