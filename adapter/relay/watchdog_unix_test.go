//go:build linux

package relay

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const watchdogChildEnv = "ASKBRIDGE_TEST_WATCHDOG_CHILD"

// TestWatchdogEndsTheGroupWhenAskbridgeIsKilled plays macOS on Linux: a
// child process (askbridge) starts a process group without Pdeathsig (the
// agent, which ignores SIGTERM and has a helper) and the watchdog guarding
// it, then is killed with SIGKILL. The whole group must be gone soon after,
// SIGTERM first, SIGKILL for what ignores it. (Linux tests the watchdog;
// it is what runs on macOS and the BSDs.)
func TestWatchdogEndsTheGroupWhenAskbridgeIsKilled(t *testing.T) {
	if os.Getenv(watchdogChildEnv) != "" {
		watchdogChild()
		return
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	child := exec.CommandContext(ctx, exe, "-test.run=^TestWatchdogEndsTheGroupWhenAskbridgeIsKilled$", "-test.count=1")
	child.Env = append(os.Environ(), watchdogChildEnv+"=1", "GORACE=atexit_sleep_ms=0")
	out, err := child.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, child.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	pgid, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(line), "pgid "))
	require.NoError(t, err, "the child said %q", line)
	t.Cleanup(func() { syscall.Kill(-pgid, syscall.SIGKILL) })
	require.True(t, groupAlive(pgid), "the agent's group runs while askbridge does")
	time.Sleep(300 * time.Millisecond)
	require.True(t, groupAlive(pgid), "the watchdog waits while askbridge lives")

	child.Process.Kill()
	child.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for groupAlive(pgid) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	assert.False(t, groupAlive(pgid), "the agent's group outlived askbridge")
}

// watchdogChild is askbridge in the scenario: it starts the group and its
// watchdog, says the group id, and waits to be killed.
func watchdogChild() {
	agent := exec.Command("sh", "-c", `trap '' TERM; sleep 300 & wait`)
	agent.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := agent.Start(); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	if startWatchdog(agent.Process.Pid) == nil {
		fmt.Println("error: no watchdog")
		os.Exit(1)
	}
	fmt.Printf("pgid %d\n", agent.Process.Pid)
	time.Sleep(time.Minute)
	os.Exit(1)
}

func TestWatchdogStopsWithoutFiring(t *testing.T) {
	agent := exec.Command("sleep", "300")
	agent.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, agent.Start())
	defer func() { agent.Process.Kill(); agent.Wait() }()
	d := startWatchdog(agent.Process.Pid)
	require.NotNil(t, d)
	d.stop()
	time.Sleep(300 * time.Millisecond)
	assert.True(t, groupAlive(agent.Process.Pid), "a stopped watchdog signalled the group")
}
