package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/askbridge/askbridge/internal/hubunit"
	"github.com/askbridge/askbridge/internal/notify"
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
	writeUnits(stdout, stderr, files)
	return 0
}

// writeUnits prints the unit's files. One (launchd's plist) goes out as it
// is, for a redirect to save, what to run next on stderr; several
// (systemd's socket and service) each under a comment line naming the
// file to save it as, then the commands that enable them, all lines a
// unit file takes as comments.
func writeUnits(stdout, stderr io.Writer, files []hubunit.File) {
	if len(files) == 1 {
		io.WriteString(stdout, files[0].Text)
		fmt.Fprintf(stderr, "askbridge hub: save it as %s, then: launchctl bootstrap gui/$(id -u) %s\n", files[0].Path, files[0].Path)
		return
	}
	var names []string
	for _, f := range files {
		fmt.Fprintf(stdout, "# save as %s\n%s\n", f.Path, f.Text)
		names = append(names, filepath.Base(f.Path))
	}
	fmt.Fprintf(stdout, "# then run\n#   systemctl --user daemon-reload\n#   systemctl --user enable --now %s\n", strings.Join(names, " "))
}
