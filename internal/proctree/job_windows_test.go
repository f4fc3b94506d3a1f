package proctree

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary stand in for a process that runs on.
func TestMain(m *testing.M) {
	if os.Getenv("PROCTREE_TEST_SLEEP") != "" {
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startSleeper starts the test binary, sleeping, in a job; the channel
// gets its exit.
func startSleeper(t *testing.T) (*Job, <-chan error) {
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "PROCTREE_TEST_SLEEP=1")
	j, err := StartJob(cmd)
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { j.Close() })
	return j, done
}

func waitExit(t *testing.T, done <-chan error, why string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal(why)
	}
}

// Terminate ends what is in the job; Close may come twice, and a closed
// job is not terminated by its old handle.
func TestJobTerminatesItsProcesses(t *testing.T) {
	j, done := startSleeper(t)
	assert.Equal(t, 1, j.Active())
	require.NoError(t, j.Terminate())
	waitExit(t, done, "Terminate left the process running")
	require.Eventually(t, func() bool { return j.Active() == 0 }, 10*time.Second, 20*time.Millisecond)
	j.Close()
	j.Close()
	assert.Error(t, j.Terminate(), "a closed job")
	assert.Zero(t, j.Active())
}

// Closing the job's last handle ends what is in it (kill-on-close), as
// askbridge's exit does, however it ends.
func TestJobEndsItsProcessesWhenClosed(t *testing.T) {
	j, done := startSleeper(t)
	j.Close()
	waitExit(t, done, "closing the job left the process running")
}
