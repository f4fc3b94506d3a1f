package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Parse parses a subcommand's flags. -h prints usage and the flags on
// stdout and is done with 0: help asked for is not an error. A bad flag
// prints the problem and usage on stderr and is done with 2.
func Parse(fs *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) (code int, done bool) {
	help, err := ParseArgs(fs, args)
	switch {
	case help:
		PrintUsage(stdout, fs, usage)
		return 0, true
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\nRun '%s -h' for usage.\n", fs.Name(), err, fs.Name())
		return 2, true
	}
	return 0, false
}

// ParseArgs parses fs quietly: help reports -h; err is the flag package's,
// except that a duration's says what it wants.
func ParseArgs(fs *flag.FlagSet, args []string) (help bool, err error) {
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

// PrintUsage writes usage, then the flags of fs, if any, as printDefaults
// does.
func PrintUsage(w io.Writer, fs *flag.FlagSet, usage string) {
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
