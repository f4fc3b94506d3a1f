package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"

	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/wire/replay"
)

func init() {
	subcommands["replay"] = runReplay
	subcommands["__replay-agent"] = runReplayAgent
	subcommands["record-fixture"] = runRecordFixture
}

const replayUsage = `Usage: askbridge replay [-update] FIXTURE.txtar...

Plays each fixture's client and agent against this askbridge and compares
what askbridge sent each side with the fixture's want sections; prints PASS
or FAIL with a diff per fixture, and exits 1 if any failed.

With -update it writes what askbridge sent into the want sections instead:
how a fixture fresh from record-fixture (its want sections empty) becomes
one that passes. Read the new want lines before trusting them: they are
what askbridge does now, right or wrong.`

const recordFixtureUsage = `Usage: askbridge record-fixture RECORDING.jsonl|ZED-LOG.json [OUT.txtar]

Turns a recording (askbridge --record FILE) or a Zed ACP log export (a JSON
array) into a conformance fixture: the client's and the agent's lines, and
what the answer desk did (replay gives it back). With no OUT it is written
to stdout.`

// runReplay is `askbridge replay FILE...`: each fixture against this binary.
func runReplay(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge replay", flag.ContinueOnError)
	update := fs.Bool("update", false, "rewrite each fixture's want-client and want-agent sections from what askbridge sends now")
	if code, done := cliflag.Parse(fs, replayUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, replayUsage)
		return 2
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge replay:", err)
		return 1
	}
	if replay.Run(exe, fs.Args(), *update, stdout) > 0 {
		return 1
	}
	return 0
}

// runReplayAgent plays a fixture's agent; askbridge replay runs it as the agent.
func runReplayAgent(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge __replay-agent", flag.ContinueOnError)
	fs.SetOutput(stderr)
	// askbridge appends these for an OpenCode fixture, as for opencode acp.
	port := fs.String("port", "", "where to serve OpenCode's question routes")
	host := fs.String("hostname", "127.0.0.1", "")
	if len(args) < 2 || fs.Parse(args[2:]) != nil {
		fmt.Fprintln(stderr, "usage: askbridge __replay-agent FIXTURE OUT [--port P --hostname H]")
		return 2
	}
	addr := ""
	if *port != "" {
		addr = net.JoinHostPort(*host, *port)
	}
	if err := replay.Agent(args[0], args[1], addr, stdin, stdout); err != nil {
		fmt.Fprintln(stderr, "replay agent:", err)
		return 1
	}
	return 0
}

// runRecordFixture is `askbridge record-fixture IN [OUT]`: a --record file
// or a Zed ACP log export becomes a fixture skeleton.
func runRecordFixture(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge record-fixture", flag.ContinueOnError)
	if code, done := cliflag.Parse(fs, recordFixtureUsage, args, stdout, stderr); done {
		return code
	}
	args = fs.Args()
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprintln(stderr, recordFixtureUsage)
		return 2
	}
	if err := replay.Record(args[0], args[1:], stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "askbridge record-fixture:", err)
		return 1
	}
	return 0
}
