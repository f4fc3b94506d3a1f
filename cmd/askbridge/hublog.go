package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/wire/hubctl"
)

const hubLogUsage = `Usage: askbridge hub log [--json] [-n N] [--verify]

Who decided what: every question set and approval the hub saw end, oldest
first, with its agent and folder, what was asked (an approval's tool call
title and the sha256 of its arguments), the outcome, the route and device
that decided it and how long it waited. Read from the hub's decisions log
(hub-decisions.jsonl in its state folder); the hub need not run. --verify
checks each passkey-signed approval offline (docs/approvals.md).`

// hubLog is `askbridge hub log`.
func hubLog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge hub log", flag.ContinueOnError)
	raw := fs.Bool("json", false, "print the log's JSON lines as they are")
	last := fs.Int("n", 0, "print only the last `N` decisions (0: all)")
	check := fs.Bool("verify", false, "check every signed approval against the devices' passkeys; exit 1 if any fails")
	if code, done := cliflag.Parse(fs, hubLogUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "askbridge hub log: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if err := hubctl.Log(stdout, *raw, *last, *check); err != nil {
		fmt.Fprintln(stderr, "askbridge hub log:", err)
		return 1
	}
	return 0
}
