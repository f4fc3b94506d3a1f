package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
)

func init() {
	subcommands["help"] = runHelp
	subcommands["version"] = runVersion
}

const helpUsage = `Usage: askbridge help [SUBCOMMAND]

Prints askbridge's usage, or a subcommand's.`

const versionUsage = `Usage: askbridge version    (or askbridge --version)

Prints askbridge's version: the release's, stamped at build time (make build
and make dist stamp git describe's); otherwise from its build info: the module
version when installed with go install ...@VERSION; built in a checkout, a
pseudo-version of its commit (v0.0.0-DATE-COMMIT, +dirty with local changes),
or "(devel)" when built without version control information (-buildvcs=false).`

// runHelp is `askbridge help [SUBCOMMAND]`. A subcommand's help is what its
// own -h prints, so the two never disagree.
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stdout, proxyFlagSet())
		return 0
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		fmt.Fprintln(stdout, helpUsage)
		return 0
	}
	sub, ok := subcommands[name]
	if len(args) > 1 || !ok || hidden(name) {
		fmt.Fprintf(stderr, "askbridge help: no subcommand %q; there are %s\n", strings.Join(args, " "), strings.Join(visibleSubcommands(), ", "))
		return 2
	}
	return sub([]string{"-h"}, stdin, stdout, stdout)
}

// runVersion is `askbridge version`.
func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("askbridge version", flag.ContinueOnError)
	if code, done := parseFlags(fs, versionUsage, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "askbridge version: unexpected argument %q\n%s\n", fs.Arg(0), versionUsage)
		return 2
	}
	fmt.Fprintln(stdout, version())
	return 0
}

// buildVersion is the release, stamped by the build:
// go build -ldflags "-X main.buildVersion=v1.2.3" (.goreleaser.yaml, Makefile).
var buildVersion string

// version is the stamped release, else the main module's version as the
// build recorded it.
func version() string {
	v := buildVersion
	if info, ok := debug.ReadBuildInfo(); ok && v == "" && info.Main.Version != "" {
		v = info.Main.Version
	}
	if v == "" {
		v = "(unknown)"
	}
	return fmt.Sprintf("askbridge %s (%s, %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// parseFlags parses a subcommand's flags. -h prints usage and the flags on
// stdout and is done with 0: help asked for is not an error. A bad flag
// prints the problem and usage on stderr and is done with 2.
func parseFlags(fs *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) (code int, done bool) {
	help, err := parseArgs(fs, args)
	switch {
	case help:
		printFlagUsage(stdout, fs, usage)
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\nRun '%s -h' for usage.\n", fs.Name(), err, fs.Name())
		return 2, true
	}
	return 0, false
}

// parseArgs parses fs quietly: help reports -h; err is the flag package's,
// except that a duration's says what it wants.
func parseArgs(fs *flag.FlagSet, args []string) (help bool, err error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return true, nil
	}
	return false, durationError(fs, err)
}

// durationError rewrites the flag package's "parse error" for a duration:
// most often a bare number (--question-timeout 5), which Go will not guess
// a unit for.
func durationError(fs *flag.FlagSet, err error) error {
	if err == nil {
		return nil
	}
	// Compiled here, not at init: askbridge's start stays cheap (inittrace_test).
	m := regexp.MustCompile(`^invalid value "(.*)" for flag -([^:]+): `).FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	f := fs.Lookup(m[2])
	if f == nil || fmt.Sprintf("%T", f.Value) != "*flag.durationValue" {
		return err
	}
	if _, numErr := strconv.ParseFloat(m[1], 64); numErr == nil {
		return fmt.Errorf("--%s %s: give a unit, e.g. %sm", m[2], m[1], m[1])
	}
	return fmt.Errorf("--%s %q: want a duration with a unit, e.g. 90s, 5m or 1h30m", m[2], m[1])
}

func printFlagUsage(w io.Writer, fs *flag.FlagSet, usage string) {
	fmt.Fprintln(w, usage)
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nFlags:")
		printDefaults(w, fs)
	}
}

// printDefaults is flag.PrintDefaults with the two dashes the README and
// docs/flags.md write (the flag package takes either).
func printDefaults(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		var b strings.Builder
		b.WriteString("  --" + f.Name)
		name, text := flag.UnquoteUsage(f)
		_, isBool := f.Value.(interface{ IsBoolFlag() bool })
		switch {
		case isBool:
			name = "" // a bool flag takes no value: `quotes` in its usage are just quotes
		case strings.Contains(name, " "):
			// `askbridge hub` in a usage is a name, not the flag's value.
			name, _ = flag.UnquoteUsage(&flag.Flag{Value: f.Value, Usage: strings.ReplaceAll(f.Usage, "`", "")})
		}
		if name != "" {
			b.WriteString(" " + name)
		}
		b.WriteString("\n    \t" + strings.ReplaceAll(text, "\n", "\n    \t"))
		switch f.DefValue {
		case "", "0", "0s", "false":
		default:
			if fmt.Sprintf("%T", f.Value) == "*flag.stringValue" {
				fmt.Fprintf(&b, " (default %q)", f.DefValue)
			} else {
				fmt.Fprintf(&b, " (default %v)", f.DefValue)
			}
		}
		fmt.Fprintln(w, b.String())
	})
}

// hidden subcommands are askbridge running itself as a child process.
func hidden(name string) bool { return strings.HasPrefix(name, "__") }

func visibleSubcommands() []string {
	var names []string
	for name := range subcommands {
		if !hidden(name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// isHelp reports whether args ask for help rather than carry a value.
func isHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help")
}
