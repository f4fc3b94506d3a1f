//go:build unix

package main

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/wire/hubserve"
)

// Another user binds the hub's port while the hub is down (issue 31). The
// user's inbox, its pairing and device commands, and an askbridge with the
// hub's usual settings send nothing to that listener: each speaks to the hub
// over its Unix socket only. Before, the inbox sent the lasting token from
// the config folder or ASKBRIDGE_HUB_TOKEN to http://127.0.0.1:7683.
func TestE2ENothingIsSentToASquatterOnTheHubPort(t *testing.T) {
	ln, err := net.Listen("tcp", hubserve.DefaultListen)
	if err != nil {
		t.Skipf("the hub's port is taken here: %v", err)
	}
	var mu sync.Mutex
	var got []string
	accepted := 0
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			accepted++
			mu.Unlock()
			go func() {
				defer c.Close()
				c.SetReadDeadline(time.Now().Add(2 * time.Second))
				b, _ := io.ReadAll(io.LimitReader(c, 64<<10))
				mu.Lock()
				got = append(got, string(b))
				mu.Unlock()
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); <-done })

	const secret = "a-token-the-user-once-had-0123456789"
	dir := privateDir(t)
	config := filepath.Join(dir, "config")
	require.NoError(t, os.MkdirAll(filepath.Join(config, "askbridge"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(config, "askbridge", "hub-token"), []byte(secret+"\n"), 0o600))
	for k, v := range map[string]string{"ASKBRIDGE_HUB": filepath.Join(dir, "hub.sock"), "ASKBRIDGE_HUB_TOKEN": secret,
		"XDG_CONFIG_HOME": config, "XDG_STATE_HOME": filepath.Join(dir, "state"), "XDG_RUNTIME_DIR": dir} {
		t.Setenv(k, v) // for the commands below and the askbridge startClient runs
	}

	for _, args := range [][]string{{"inbox"}, {"inbox", "--json"}, {"hub", "pair"}, {"hub", "devices"}} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, askbridgeBin, args...)
		cmd.Stdin = strings.NewReader("2\n")
		out, _ := cmd.CombinedOutput()
		hung := ctx.Err()
		cancel()
		require.NoError(t, hung, "askbridge %s hung:\n%s", strings.Join(args, " "), out)
		assert.NotContains(t, string(out), secret, "askbridge %s", strings.Join(args, " "))
	}
	squatterGotNothing := func(who string) {
		t.Helper()
		time.Sleep(500 * time.Millisecond) // a dial in flight would land by now
		mu.Lock()
		defer mu.Unlock()
		assert.Zero(t, accepted, "%s dialled the squatter; it got %q", who, got)
		for _, b := range got {
			assert.NotContains(t, b, secret)
		}
	}
	squatterGotNothing("the inbox or a hub command")

	// An askbridge that reports to the hub, as every one does by default.
	c := startClient(t)
	c.setup()
	squatterGotNothing("an askbridge")
}
