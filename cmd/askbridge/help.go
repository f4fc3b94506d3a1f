package main

import (
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/askbridge/askbridge/internal/cliflag"
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
	if code, done := cliflag.Parse(fs, versionUsage, args, stdout, stderr); done {
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
