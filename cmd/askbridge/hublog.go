package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/askbridge/askbridge/internal/cliflag"
	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/internal/hub"
)

const hubLogUsage = `Usage: askbridge hub log [--json] [-n N]

Who decided what: every question set and approval the hub saw end, oldest
first, with its agent and folder, what was asked (an approval's tool call
title and the sha256 of its arguments), the outcome, the route and device
that decided it and how long it waited. Read from the hub's decisions log
(hub-decisions.jsonl in its state folder); the hub need not run.`

// hubLog is `askbridge hub log`.
func hubLog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge hub log", flag.ContinueOnError)
	raw := fs.Bool("json", false, "print the log's JSON lines as they are")
	last := fs.Int("n", 0, "print only the last `N` decisions (0: all)")
	if code, done := cliflag.Parse(fs, hubLogUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "askbridge hub log: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	path, err := hub.DecisionsPath()
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub log:", err)
		return 1
	}
	if *raw && *last <= 0 {
		if err := decisions.Lines(path, stdout); err != nil {
			fmt.Fprintln(stderr, "askbridge hub log:", err)
			return 1
		}
		return 0
	}
	recs, err := decisions.Read(path)
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub log:", err)
		return 1
	}
	if *last > 0 && len(recs) > *last {
		recs = recs[len(recs)-*last:]
	}
	for _, r := range recs {
		if *raw {
			writeJSONLine(stdout, r)
			continue
		}
		fmt.Fprintln(stdout, decisionLine(r))
	}
	if len(recs) == 0 && !*raw {
		fmt.Fprintln(stdout, "No decision is logged yet ("+path+").")
	}
	return 0
}

// decisionLine is one record for a person to read.
func decisionLine(r decisions.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %-8s  %s", r.Time.Local().Format("2006-01-02 15:04:05"), r.Kind, r.Outcome)
	by := r.Route
	if r.Device != "" {
		by += " on " + r.Device
	}
	if by != "" {
		fmt.Fprintf(&b, " by %s", by)
	}
	fmt.Fprintf(&b, " after %s", (time.Duration(r.WaitedMs) * time.Millisecond).Round(time.Second))
	if r.Agent != "" || r.CWD != "" {
		fmt.Fprintf(&b, "  [%s %s]", r.Agent, r.CWD)
	}
	fmt.Fprintf(&b, "\n    asked: %s", r.Asked)
	if r.Digest != "" {
		fmt.Fprintf(&b, " (%s)", r.Digest)
	}
	if r.Answer != "" {
		lasting := ""
		if r.Lasting {
			lasting = " (lasting)"
		}
		fmt.Fprintf(&b, "\n    answer: %s%s", r.Answer, lasting)
	}
	if r.Reason != "" {
		fmt.Fprintf(&b, "\n    reason: %s", r.Reason)
	}
	return b.String()
}

func writeJSONLine(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", b)
}
