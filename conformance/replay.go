package conformance

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/dialect/opencode"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
	deskserver "github.com/askbridge/askbridge/route/desk"
)

// Got is what askbridge sent each side during a replay.
type Got struct {
	Client [][]byte
	Agent  [][]byte
}

// Check compares a replay with the fixture's want sections; the error
// holds a diff per side.
func (f *Fixture) Check(got Got) error {
	var msg string
	if d := Diff(f.WantClient, got.Client); d != "" {
		msg += "want-client differs (- want, + got):\n" + d
	}
	if d := Diff(f.WantAgent, got.Agent); d != "" {
		msg += "want-agent differs (- want, + got):\n" + d
	}
	if msg != "" {
		return errors.New(msg)
	}
	return nil
}

// Update replaces the want sections with what a replay got.
func (f *Fixture) Update(got Got) {
	f.WantClient = normalizedLines(got.Client)
	f.WantAgent = normalizedLines(got.Agent)
}

func normalizedLines(lines [][]byte) [][]byte {
	out := make([][]byte, len(lines))
	for i, l := range lines {
		out[i] = generatedID().ReplaceAll(withMCPPaths(l), []byte("askbridge-ID"))
	}
	return out
}

// Options turns a fixture's flags into bridge options (the subset of
// askbridge's flags that change what it says) for the agent command
// starts, and says whether the fixture needs OpenCode's question server
// (--agent-kind=opencode).
func Options(flags, command []string) (adapter.Options, bool, error) {
	var kind string
	var inject asktool.Inject
	fs := flag.NewFlagSet("fixture flags", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := adapter.Options{Limits: permission.DefaultLimits(), Agent: command}
	fs.BoolVar(&o.Advertise, "advertise", true, "")
	fs.Var(&o.Render, "render", "")
	fs.DurationVar(&o.QuestionTimeout, "question-timeout", 0, "")
	fs.Var(&o.OnTimeout, "on-timeout", "")
	fs.IntVar(&o.MaxRounds, "max-rounds", 10, "")
	fs.StringVar(&kind, "agent-kind", adapter.KindAuto, "")
	fs.Var(&inject, "inject-ask", "")
	if err := fs.Parse(flags); err != nil {
		return o, false, fmt.Errorf("flags: %v", err)
	}
	// As the binary does: the MCP ask tool listed where --inject-ask says.
	o.Dialects = adapter.DialectsWith(adapter.DialectConfig{AskTool: asktool.Config{Inject: inject, Command: MCPCommand, Socket: MCPSocket, Argv: command}})
	return o, kind == "opencode", nil
}

// ReplayInProcess plays the fixture against the adapter in this process.
func ReplayInProcess(ctx context.Context, f *Fixture) (Got, error) {
	opts, openCode, err := Options(f.Flags, f.Command)
	if err != nil {
		return Got{}, err
	}
	agent := newSide("agent", f.Agent, true)
	opts.Board = permission.NewBoard()
	var desk *deskEndpoint
	if len(f.Desk) > 0 {
		// The desk lines are given over the desk's HTTP API, as through
		// the binary.
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return Got{}, err
		}
		srv := deskserver.New(ln, opts.Board, deskserver.Options{})
		defer srv.Close()
		desk = &deskEndpoint{code: func(context.Context) (string, error) {
			code, _ := srv.Devices().NewCode()
			return code, nil
		}}
		base := "http://" + ln.Addr().String() + "/"
		desk.base = func(context.Context) (string, error) { return base, nil }
		opts.Attended = func() bool { return true } // as the binary with --desk
	}
	if openCode {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return Got{}, err
		}
		oc := startOpenCode(ln, "fixture", agent)
		defer oc.close()
		server := &opencode.Server{BaseURL: oc.URL, Password: "fixture"}
		for _, d := range opts.Dialects {
			if o, ok := d.(*opencode.Dialect); ok {
				o.Server = server
			}
		}
	}
	cInR, cInW := io.Pipe()   // client -> askbridge
	cOutR, cOutW := io.Pipe() // askbridge -> client
	aInR, aInW := io.Pipe()   // agent -> askbridge
	aOutR, aOutW := io.Pipe() // askbridge -> agent
	relay := relay.New(relay.Config{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: aOutW})
	cleanup := adapter.NewBridge(opts).Setup(relay)
	relay.Start()
	defer func() {
		cleanup()
		cOutW.Close()
		aOutW.Close()
	}()
	go agent.receive(aOutR)
	agentErr := make(chan error, 1)
	go func() { agentErr <- agent.play(ctx, aInW) }()

	client, err := playClient(ctx, f, cInW, cOutR, agent, desk)
	if err == nil {
		err = <-agentErr
	}
	aInW.Close()
	return Got{Client: client, Agent: agent.received()}, err
}

// deskEndpoint is where a replay's askbridge serves the answer desk.
type deskEndpoint struct {
	base func(ctx context.Context) (string, error) // "http://HOST:PORT/", once known
	code func(ctx context.Context) (string, error) // a pairing code, as the user reads it
}

// playClient plays the client's script against askbridge on w/r, and the
// desk's lines at desk, waits for the exchange to settle (also on other,
// the agent's side, when it runs here), and returns what the client
// received.
//
// The bound is for a replay that hangs: a fixture plays in a second or two,
// but took 23 s under Wine on a CI machine whose other lane was building.
func playClient(ctx context.Context, f *Fixture, w io.WriteCloser, r io.Reader, other *side, desk *deskEndpoint) ([][]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	client := newSide("client", f.Client, false)
	done := make(chan struct{})
	go func() { client.receive(r); close(done) }()
	var deskDone chan error
	if len(f.Desk) > 0 {
		if desk == nil {
			return nil, errors.New("the fixture has desk lines, and this replay no desk to give them at")
		}
		p := &deskPlayer{lines: f.Desk, base: desk.base, code: desk.code, client: client}
		for _, d := range f.Desk {
			client.holds = append(client.holds, d.After)
		}
		deskDone = make(chan error, 1)
		go func() { deskDone <- p.play(ctx) }()
	}
	err := client.play(ctx, w)
	if deskDone != nil {
		// Every desk line given (or failed) before the exchange may settle.
		err = errors.Join(<-deskDone, err)
	}
	// Let the last answers and updates arrive: at least as many lines as
	// the fixture wants (a loaded machine may take its time), then nothing
	// more for a while (to catch lines it does not want).
	client.await(ctx, len(f.WantClient))
	if other != nil {
		other.await(ctx, len(f.WantAgent))
	}
	for range 2 {
		client.quiet(ctx, 300*time.Millisecond)
		if other != nil {
			other.quiet(ctx, 300*time.Millisecond)
		}
	}
	got := client.received()
	w.Close()
	return got, err
}
