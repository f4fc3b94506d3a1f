//go:build linux

package relay_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// agentGroups lists the process groups led by children of this test process
// (the fake agents it started).
func agentGroups(t *testing.T) []int {
	t.Helper()
	self := strconv.Itoa(os.Getpid())
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var groups []int
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// Fields after the command name: state ppid pgrp ...
		rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
		f := strings.Fields(rest)
		if len(f) > 2 && f[1] == self {
			if pgid, err := strconv.Atoi(f[2]); err == nil {
				groups = append(groups, pgid)
			}
		}
	}
	if len(groups) == 0 {
		t.Fatal("found no child process group")
	}
	return groups
}

func TestRunLeavesNoProcessOfTheAgentsGroup(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "stubborn")
	h := startRun(t, cmd, env, 200*time.Millisecond)
	h.client.Send(`{"jsonrpc":"2.0","id":1,"method":"_pid","params":{}}`)
	h.client.Recv()
	pgids := agentGroups(t)
	h.stdinW.Close()
	require.NoError(t, h.wait(t))
	for _, pgid := range pgids {
		assert.False(t, relay.GroupAlive(pgid), "process group %d still has running members", pgid)
	}
}
