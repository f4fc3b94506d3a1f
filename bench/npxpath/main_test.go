//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// answerInit is a stand-in agent: it answers the first line with an
// initialize result and then reads until its stdin ends.
var answerInit = []string{"/bin/sh", "-c", `read -r l; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}'; cat >/dev/null`}

// askbridgeBin is askbridge built once for the package's tests.
var askbridgeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "npxpath-test-")
	if err != nil {
		panic(err)
	}
	askbridgeBin = filepath.Join(dir, "askbridge")
	out, err := exec.Command("go", "build", "-o", askbridgeBin, "../../cmd/askbridge").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		panic(fmt.Sprintf("go build: %v\n%s", err, out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func buildAskbridge(*testing.T) string { return askbridgeBin }

// The binary's route: the tree is askbridge alone (the agent's process is
// left out), its memory read, the response timed.
func TestMeasureBinary(t *testing.T) {
	bin := buildAskbridge(t)
	s, err := measure(route{name: "binary", argv: []string{bin}}, answerInit, t.TempDir())
	require.NoError(t, err)
	// Contained (Linux with user namespaces), the agent's container has an
	// init of its own, askbridge again: it stays beside the agent too.
	assert.Contains(t, []string{"askbridge", "askbridge > askbridge"}, s.procs)
	assert.Positive(t, s.ready)
	assert.Positive(t, s.private)
	assert.Greater(t, s.rss, s.private, "RSS holds the binary's pages beside its private memory")
}

// The launcher installed as npm lays it out runs the binary through Node,
// and with Node the route's tree holds it.
func TestMeasureLauncher(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	bin := buildAskbridge(t)
	dir, err := install(bin, "../../npm/askbridge")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	assert.FileExists(t, filepath.Join(dir, "node_modules", ".bin", "askbridge"))
	js := filepath.Join(dir, "node_modules", "askbridge", "bin", "askbridge.js")
	s, err := measure(route{name: "launcher", argv: []string{node, js}}, answerInit, dir)
	require.NoError(t, err)
	assert.Contains(t, []string{"askbridge", "node (askbridge.js) > askbridge",
		"askbridge > askbridge", "node (askbridge.js) > askbridge > askbridge"}, s.procs,
		"Node replaced by askbridge, or Node and askbridge under it (each with the container's init when contained)")
}

// An agent whose first line is not the initialize response is an error,
// with askbridge's stderr.
func TestMeasureBadAgent(t *testing.T) {
	bin := buildAskbridge(t)
	_, err := measure(route{name: "binary", argv: []string{bin}}, []string{"/bin/sh", "-c", `echo '{"jsonrpc":"2.0","method":"x"}'; cat >/dev/null`}, t.TempDir())
	assert.ErrorContains(t, err, "not an initialize response")
	assert.ErrorContains(t, err, "agent started")
}
