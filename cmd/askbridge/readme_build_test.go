package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The first build is said as it is: the README gives its cost where it
// says how to build (it said "in seconds" of a build that took minutes),
// the Makefile says so before building and shows progress, make demo
// builds first, and the README says how to install what make dist-local
// makes, by names the Makefile and npm/build.mjs give.
func TestREADMESaysWhatTheFirstBuildCosts(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	readme := textOf(t, filepath.Join(root, "README.md"))
	makefile := textOf(t, filepath.Join(root, "Makefile"))

	install := mdSection(t, readme, "## Install")
	assert.NotRegexp(t, `make build[^\n]*in seconds`, install, "a first build takes minutes")
	first := regexp.MustCompile(`The first build compiles about (\d+) packages[^.]*: about (\d+) s of CPU`).FindStringSubmatch(install)
	require.NotNil(t, first, "the README says what the first build costs:\n%s", install)
	assert.Contains(t, makefile, "The first build compiles about "+first[1]+" packages (about "+first[2]+" s of CPU", "the Makefile says the README's figures")
	// The figure is the build's: within 5% of what go list counts.
	if _, err := exec.LookPath("go"); err == nil {
		deps, err := exec.Command("go", "list", "-deps", ".").Output()
		require.NoError(t, err)
		said, _ := strconv.Atoi(first[1])
		n := strings.Count(string(deps), "\n")
		assert.InDelta(t, n, said, float64(n)/20, "the README says about %d packages; go list -deps counts %d", said, n)
	}
	// "Later builds take seconds" holds for a go install only with make
	// build's settings: cgo off and -trimpath are in every package's cache key.
	goInstall := regexp.MustCompile(`(?m)^(.*)go install (.*)\./cmd/askbridge`).FindStringSubmatch(install)
	require.NotNil(t, goInstall, "the README says how to go install")
	assert.Contains(t, goInstall[1], "CGO_ENABLED=0", "as make build builds")
	assert.Contains(t, goInstall[2], "-trimpath", "as make build builds")
	assert.Contains(t, makeTarget(t, makefile, "build"), "CGO_ENABLED=0 $(GO) build -v -trimpath")

	build := makeTarget(t, makefile, "build")
	assert.Regexp(t, `(?m)^\t@echo "\$\(BUILD_NOTE\)"$`, strings.SplitN(build, "\n", 3)[1], "a line before anything builds")
	assert.Contains(t, build, "build -v", "progress: the packages as they compile")
	assert.Contains(t, build, "exit $$status", "go build's status is make's")
	assert.Regexp(t, `(?m)^demo: build$`, makefile, "make demo builds first, saying so")

	// make dist-local's archive and npm tarballs, as its README lines name them.
	name := regexp.MustCompile(`LOCAL_NAME := (\S+)`).FindStringSubmatch(makefile)
	require.NotNil(t, name)
	archive := strings.NewReplacer("$(LOCAL_VERSION)", "0.0.0-local.gabc1234", "$(LOCAL_OS)", "linux", "$(LOCAL_ARCH)", "amd64").Replace(name[1]) + ".tar.gz"
	tarLine := regexp.MustCompile(`(?m)^tar -xzf (dist/\S+) -C \S+ askbridge\b`).FindStringSubmatch(install)
	require.NotNil(t, tarLine, "the README installs the archive")
	assert.True(t, globMatches(t, tarLine[1], "dist/"+archive), "%s names %s", tarLine[1], archive)
	npmLine := regexp.MustCompile(`(?m)^npm install -g (\./dist/npm/\S+) (\./dist/npm/\S+)`).FindStringSubmatch(install)
	require.NotNil(t, npmLine, "the README installs the npm tarballs")
	assert.True(t, globMatches(t, npmLine[1], "./dist/npm/askbridge-0.0.0-local.gabc1234.tgz"), npmLine[1])
	assert.False(t, globMatches(t, npmLine[1], "./dist/npm/askbridge-linux-x64-0.0.0-local.gabc1234.tgz"), "the main package alone")
	assert.True(t, globMatches(t, npmLine[2], "./dist/npm/askbridge-linux-x64-0.0.0-local.gabc1234.tgz"), npmLine[2])
}

func textOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

// mdSection is a Markdown file's text from heading to the next of its level.
func mdSection(t *testing.T, text, heading string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, "\n"+heading+"\n")
	require.True(t, ok, "no %q", heading)
	if i := strings.Index(rest, "\n"+heading[:strings.Index(heading, " ")+1]); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// makeTarget is a Makefile target's rule: its line and its recipe.
func makeTarget(t *testing.T, makefile, name string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + name + `:.*\n(\t.*\n)+`).FindString(makefile)
	require.NotEmpty(t, m, "no target %s", name)
	return m
}

func globMatches(t *testing.T, pattern, name string) bool {
	t.Helper()
	ok, err := filepath.Match(pattern, name)
	require.NoError(t, err)
	return ok
}
