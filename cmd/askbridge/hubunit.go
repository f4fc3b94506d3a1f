package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/askbridge/askbridge/route/notify"
	"github.com/askbridge/askbridge/wire/hubunit"
)

// printHubUnit writes the unit that starts this hub, with the flags given
// but --print-unit, at login (hubunit.Make): on Linux a socket unit that
// holds the page's port across the hub's restarts, and its service. Secrets (--notify-url's
// topic, the environment's ntfy URL and token) go to files of mode 0600
// that the unit reads, never into the unit.
func printHubUnit(fs *flag.FlagSet, stdout, stderr io.Writer) int {
	var args []string
	var env []string
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "print-unit":
		case "notify-url":
			env = append(env, notify.URLEnv+"="+f.Value.String())
		default:
			args = append(args, "--"+f.Name+"="+f.Value.String())
		}
	})
	for _, name := range []string{notify.URLEnv, notify.TokenEnv} {
		if v := os.Getenv(name); v != "" && !(name == notify.URLEnv && len(env) > 0) {
			env = append(env, name+"="+v)
		}
	}
	files, envFile, err := hubunit.Make(fs.Lookup("listen").Value.String(), args, env)
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub:", err)
		return 2
	}
	if envFile != "" {
		fmt.Fprintf(stderr, "askbridge hub: the unit's secrets (%s) are in %s (mode 0600), which it reads\n", hubunit.Names(env), envFile)
	}
	hubunit.Write(stdout, stderr, files)
	return 0
}
