package main

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The folders the words name (folderProblems) are where the code looks:
// the hub's socket in $ASKBRIDGE_HUB, else $XDG_RUNTIME_DIR/askbridge,
// else (off macOS) ~/.cache/askbridge; its state in $XDG_STATE_HOME,
// else ~/.local/state.
func TestTheFoldersAreWhereTheWordsSay(t *testing.T) {
	runDir, cache, home, state := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	require.NoError(t, os.Chmod(runDir, 0o700)) // sockdir.Base takes it only when it is this user's alone
	t.Setenv(hub.SocketEnv, "")
	t.Setenv("XDG_RUNTIME_DIR", runDir)
	assert.Equal(t, filepath.Join(runDir, "askbridge", "hub.sock"), hub.SocketPath(), "$XDG_RUNTIME_DIR/askbridge")
	t.Setenv(hub.SocketEnv, filepath.Join(home, "elsewhere.sock"))
	assert.Equal(t, filepath.Join(home, "elsewhere.sock"), hub.SocketPath(), "$ASKBRIDGE_HUB")
	t.Setenv(hub.SocketEnv, "")
	t.Setenv("XDG_STATE_HOME", state)
	p, err := hub.HistoryPath()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(state, "askbridge", "hub-history.jsonl"), p, "$XDG_STATE_HOME/askbridge")
	if runtime.GOOS != "linux" {
		return // macOS's own folders are named apart in the words
	}
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CACHE_HOME", "")
	assert.Equal(t, filepath.Join(home, ".cache", "askbridge", "hub.sock"), hub.SocketPath(), "~/.cache/askbridge, never a temporary folder")
	t.Setenv("XDG_CACHE_HOME", cache)
	assert.Equal(t, filepath.Join(cache, "askbridge", "hub.sock"), hub.SocketPath(), "the user's cache folder")
	t.Setenv("XDG_STATE_HOME", "")
	p, err = hub.HistoryPath()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(home, ".local", "state", "askbridge", "hub-history.jsonl"), p, "~/.local/state/askbridge")
}

// The socket folders in the order sockdir.Base tries them, and the state
// folder with its fallback: a text naming the first names the rest.
var (
	socketFolders = []string{"$XDG_RUNTIME_DIR/askbridge", "$TMPDIR/askbridge", "~/.cache/askbridge"}
	stateFolders  = []string{"$XDG_STATE_HOME", "~/.local/state"}
	// Places askbridge never puts a socket, which an older text named.
	staleFolders = []string{"askbridge-UID", "askbridge-$UID", "/tmp/askbridge", "temporary folder"}
)

// folderProblems checks the folders a text names: a chain of socket
// folders ("…, else …") or the state folder names every fallback in the
// code's order, and no stale place is named for a socket.
func folderProblems(text string) []string {
	var problems []string
	for _, para := range paragraphs(text) {
		flat := strings.ReplaceAll(para, "`", "")
		if at := strings.Index(flat, socketFolders[0]); at >= 0 && strings.Contains(flat[at:min(len(flat), at+60)], "else") {
			problems = append(problems, inOrder(flat[at:], socketFolders)...)
		}
		if strings.Contains(flat, stateFolders[0]) {
			problems = append(problems, inOrder(flat[strings.Index(flat, stateFolders[0]):], stateFolders)...)
		}
		if strings.Contains(flat, ".sock") || strings.Contains(flat, "socket") {
			for _, s := range staleFolders {
				if strings.Contains(flat, s) {
					problems = append(problems, "a socket in "+quote(s)+", where askbridge puts none: "+flat)
				}
			}
		}
	}
	return problems
}

// inOrder says which of names text does not name, in order.
func inOrder(text string, names []string) []string {
	var problems []string
	for _, n := range names {
		at := strings.Index(text, n)
		if at < 0 {
			problems = append(problems, "names "+quote(names[0])+" but not then "+quote(n)+": "+text)
			continue
		}
		text = text[at+len(n):]
	}
	return problems
}

// pageProblems checks the page's scripts and style for names of routes
// and states the board does not have.
func pageProblems(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.js"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var problems []string
	for _, f := range files {
		for _, p := range jsProblems(textOf(t, f)) {
			problems = append(problems, filepath.Base(f)+": "+p)
		}
	}
	for _, m := range regexp.MustCompile(`\.state\.([a-z]+)`).FindAllStringSubmatch(textOf(t, filepath.Join(dir, "style.css")), -1) {
		if !slices.Contains(permission.States, permission.State(m[1])) {
			problems = append(problems, "style.css: the state class "+quote(m[1])+" is not one of permission.States")
		}
	}
	return problems
}

var (
	jsCompare  = regexp.MustCompile(`\.(source|route|state|outcome)\s*[!=]==?\s*"([^"]*)"`)
	jsCompared = regexp.MustCompile(`"([^"]*)"\s*[!=]==?\s*[\w.]*\.(source|route|state|outcome)\b`)
)

// jsProblems checks a script's comparisons of a set's source, route,
// state or outcome against the tables.
func jsProblems(js string) []string {
	var problems []string
	check := func(field, name string) {
		ok := false
		switch field {
		case "source", "route":
			ok = permission.Source(name).Where() != ""
		case "state", "outcome":
			ok = slices.Contains(permission.States, permission.State(name))
		}
		if !ok {
			problems = append(problems, "."+field+" compared with "+quote(name)+", which the board never sends")
		}
	}
	for _, m := range jsCompare.FindAllStringSubmatch(js, -1) {
		check(m[1], m[2])
	}
	for _, m := range jsCompared.FindAllStringSubmatch(js, -1) {
		check(m[2], m[1])
	}
	return problems
}
