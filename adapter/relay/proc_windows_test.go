package relay_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// stubbornTree starts the stubborn fake agent (it ignores stdin closing and
// leaves a sleeping grandchild) and returns it with both pids.
func stubbornTree(t *testing.T) (*relay.Agent, int, int) {
	t.Helper()
	cmd, env := relaytest.FakeAgentCommand(t, "stubborn")
	pidfile := filepath.Join(t.TempDir(), "pids")
	a, err := relay.StartAgent(cmd, append(env, "ASKBRIDGE_FAKE_PIDFILE="+pidfile), nil)
	require.NoError(t, err)
	agent, grandchild := readPids(t, pidfile)
	require.Equal(t, a.Pid(), agent)
	return a, agent, grandchild
}

func readPids(t *testing.T, path string) (int, int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var a, g int
		if b, err := os.ReadFile(path); err == nil {
			if _, err := fmt.Sscan(string(b), &a, &g); err == nil {
				return a, g
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the fake agent never wrote its pids")
	return 0, 0
}

// exited reports whether process pid has ended, waiting up to d.
func exited(pid int, d time.Duration) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return true // gone, and its pid not reused yet
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, uint32(d.Milliseconds()))
	return ev == windows.WAIT_OBJECT_0
}

func TestStopEndsTheAgentsWholeJob(t *testing.T) {
	a, agent, grandchild := stubbornTree(t)
	start := time.Now()
	a.Stop(300 * time.Millisecond)
	assert.GreaterOrEqual(t, time.Since(start), 600*time.Millisecond, "stdin close, then CTRL_BREAK, each with its grace")
	assert.True(t, exited(agent, 5*time.Second), "the agent outlived Stop")
	assert.True(t, exited(grandchild, 5*time.Second), "the agent's helper outlived Stop")
}

func TestReapEndsWhatTheAgentLeftInItsJob(t *testing.T) {
	cmd, env := relaytest.FakeAgentCommand(t, "stubborn")
	pidfile := filepath.Join(t.TempDir(), "pids")
	a, err := relay.StartAgent(cmd, append(env, "ASKBRIDGE_FAKE_PIDFILE="+pidfile), nil)
	require.NoError(t, err)
	_, grandchild := readPids(t, pidfile)
	relay.KillAlone(a) // the agent alone dies; its helper stays in the job
	<-a.Done()
	require.False(t, exited(grandchild, 100*time.Millisecond), "the helper runs on after the agent")
	relay.Reap(a, time.Second)
	assert.True(t, exited(grandchild, 5*time.Second), "the agent's helper outlived reap")
}

const jobChildEnv = "ASKBRIDGE_TEST_JOB_CHILD"

// TestTheJobEndsWithAskbridge kills a child askbridge outright
// (TerminateProcess: nothing of it runs again) and expects the agent and
// its helper to end with it: the job's only handle closes, and the job is
// kill-on-close.
func TestTheJobEndsWithAskbridge(t *testing.T) {
	if os.Getenv(jobChildEnv) != "" {
		a, agent, grandchild := stubbornTree(t)
		_ = a
		fmt.Printf("pids %d %d\n", agent, grandchild)
		time.Sleep(time.Minute)
		return
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	child := exec.CommandContext(ctx, exe, "-test.run=^TestTheJobEndsWithAskbridge$", "-test.count=1")
	child.Env = append(os.Environ(), jobChildEnv+"=1")
	out, err := child.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, child.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	var agent, grandchild int
	_, err = fmt.Sscanf(strings.TrimSpace(line), "pids %d %d", &agent, &grandchild)
	require.NoError(t, err, "the child said %q", line)
	require.False(t, exited(agent, 100*time.Millisecond), "the agent runs while askbridge does")

	child.Process.Kill()
	child.Wait()
	assert.True(t, exited(agent, 10*time.Second), "the agent outlived askbridge")
	assert.True(t, exited(grandchild, 10*time.Second), "the agent's helper outlived askbridge")
}
