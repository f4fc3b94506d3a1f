package proxy

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/wire/demo"
)

// Demo is `askbridge demo`: the demo agent through the real bridge, with a
// terminal client.
type Demo struct {
	Command []string      // the demo agent's
	Routes  []route.Route // the desk when asked for, the hub whenever one runs
	Prompt  string        // the prompt the client sends
	Client  *demo.Client  // answers with its prompter, writes to its Out
	Limits  permission.Limits
	Logger  *slog.Logger
	Stderr  io.Writer
}

// RunDemo plays the demo: like any askbridge, the desk when asked for, the
// hub whenever one runs. Its error is a *SetupError when the desk cannot
// start.
func RunDemo(ctx context.Context, d Demo) error {
	board := permission.NewBoard()
	env := &route.Env{Ctx: ctx, Board: board, Command: []string{"askbridge-demo"}, Logger: d.Logger, Stderr: d.Stderr}
	routes, err := route.Start(env, d.Routes)
	if err != nil {
		return &SetupError{Code: 2, Err: err}
	}
	defer routes.Close()
	bridge := adapter.NewBridge(adapter.Options{Board: board, Advertise: true, MaxRounds: 10, Limits: d.Limits, Logger: d.Logger})

	toBridgeR, toBridgeW := io.Pipe()
	fromBridgeR, fromBridgeW := io.Pipe()
	runErr := make(chan error, 1)
	go func() {
		runErr <- relay.Run(ctx, relay.RunConfig{Command: d.Command, Stdin: toBridgeR, Stdout: fromBridgeW, Stderr: d.Stderr, Logger: d.Logger, Setup: Origin(bridge.Setup, env.Hear...)})
		fromBridgeW.Close()
	}()
	fmt.Fprintln(d.Client.Out, "askbridge demo: a built-in agent asks through askbridge; you answer as a user would.")
	fmt.Fprintln(d.Client.Out)
	err = d.Client.Run(ctx, d.Prompt, fromBridgeR, toBridgeW)
	toBridgeW.Close()
	if rerr := <-runErr; err == nil && rerr != nil {
		err = rerr
	}
	return err
}
