package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"
)

const usage = `askbridge makes an agent's questions work in every ACP client.

Usage:
  askbridge [flags] -- AGENT [ARGS...]   relay between the ACP client on stdio and AGENT

Flags:
`

// proxyOptions are the flags of the proxy.
type proxyOptions struct {
	logLevel string
	logFile  string
	record   string
	grace    time.Duration
}

func proxyFlags(stderr io.Writer) (*flag.FlagSet, *proxyOptions) {
	o := &proxyOptions{}
	fs := flag.NewFlagSet("askbridge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.StringVar(&o.logFile, "log-file", "", "append logs to this file instead of stderr")
	fs.StringVar(&o.record, "record", "", "append every message both ways to this JSONL file")
	fs.DurationVar(&o.grace, "grace", 2*time.Second, "how long the agent gets to exit after stdin closes, and after SIGTERM")
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs, o
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
