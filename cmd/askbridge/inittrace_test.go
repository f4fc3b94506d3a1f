package main

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/contain"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every run of the relay pays for what askbridge's own packages do at init,
// whether or not it uses them (conformance is linked for replay, the prompt
// for ask): a package that builds tables or compiles patterns there must do
// it on first use instead (issue 26: the relay's startup and memory).
func TestOwnPackagesInitCheaply(t *testing.T) {
	t.Parallel()
	const maxBytes = 8 << 10
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, askbridgeBin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("askbridge --version: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (main|github\.com/askbridge/askbridge/\S+) @.*?, ([0-9]+) bytes, `)
	found := line.FindAllSubmatch(out, -1)
	if len(found) == 0 {
		t.Fatalf("GODEBUG=inittrace=1 printed no init of askbridge's packages:\n%s", out)
	}
	for _, m := range found {
		if n, _ := strconv.Atoi(string(m[2])); n > maxBytes {
			t.Errorf("package %s allocates %d bytes at init, more than %d: make what it builds lazy", m[1], n, maxBytes)
		}
	}
}

// The container's init is askbridge re-executed, and runs in package
// nsinit's own init function, so that each contained agent's start pays for
// as few of the program's package inits as Go's order allows: the packages
// initialized before it are the standard library's and other modules'
// leaves (nothing they import is outside the standard library, but for
// leaves of their own). A late
// import of nsinit's (path/filepath, before -home) let the webauthn,
// CBOR and crypto/x509 packages run first.
func TestContainerInitRunsBeforeTheProgramsPackages(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain to list the packages' imports")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, askbridgeBin, contain.InitArg)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput() // the init refuses the missing agent: its inits are printed first
	inits := regexp.MustCompile(`(?m)^init (\S+) @`).FindAllSubmatch(out, -1)
	list, err := exec.CommandContext(ctx, "go", "list", "-deps", "-f", `{{.ImportPath}} {{.Standard}}{{range .Imports}} {{.}}{{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	std, imports := map[string]bool{}, map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(list)), "\n") {
		f := strings.Fields(l)
		std[f[0]], imports[f[0]] = f[1] == "true", f[2:]
	}
	// A leaf imports the standard library alone (package prestart's
	// ctty, which imports syscall, is one).
	leaf := func(p string) bool {
		if std[p] || p == "C" || p == "unsafe" {
			return true
		}
		for _, imp := range imports[p] {
			if !std[imp] && imp != "unsafe" {
				return false
			}
		}
		return true
	}
	// The init exits in its own init function: inittrace names the
	// packages before it, and never main.
	if len(inits) == 0 || string(inits[len(inits)-1][1]) == "main" {
		t.Fatalf("askbridge %s ran main, not the container's init:\n%s", contain.InitArg, out)
	}
	for _, m := range inits {
		p := string(m[1])
		if std[p] || strings.HasPrefix(p, "internal/") || strings.HasPrefix(p, "runtime") {
			continue
		}
		for _, imp := range imports[p] {
			if !leaf(imp) {
				t.Errorf("package %s (which imports %s) initializes before the container's init", p, imp)
				break
			}
		}
	}
}

// The relay starts its agent's container init from package prestart's
// init function, which Go runs right after package syscall's, before os
// and time (it imports nothing else): the earlier it runs, the more of the
// init's own start runs beside askbridge's.
func TestTheContainersInitStartsBeforeOsIsInitialized(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("no container's init where there are no namespaces")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, askbridgeBin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	at := map[string]int{}
	for i, m := range regexp.MustCompile(`(?m)^init (\S+) @`).FindAllSubmatch(out, -1) {
		at[string(m[1])] = i + 1
	}
	pre := at["github.com/askbridge/askbridge/internal/contain/prestart"]
	require.NotZero(t, pre, "prestart's init is not in the trace:\n%s", out)
	for _, later := range []string{"os", "time"} {
		require.NotZero(t, at[later], later)
		assert.Less(t, pre, at[later], "prestart initializes after %s", later)
	}
}
