package proctree

import (
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A child that ended and was not waited for is listed, a zombie, in its
// own session and group when started so; once reaped it is gone.
func TestChildrenSeesAZombieUntilItIsReaped(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "exit 0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	var child Proc
	require.Eventually(t, func() bool {
		kids, err := Children(os.Getpid())
		require.NoError(t, err)
		i := slices.IndexFunc(kids, func(p Proc) bool { return p.PID == pid })
		if i >= 0 {
			child = kids[i]
		}
		return i >= 0 && child.Zombie
	}, 10*time.Second, 10*time.Millisecond)
	assert.Equal(t, os.Getpid(), child.PPID)
	assert.Equal(t, pid, child.PGID, "a session of its own leads its group")
	assert.Equal(t, pid, child.SID)
	cmd.Wait()
	kids, err := Children(os.Getpid())
	require.NoError(t, err)
	assert.False(t, slices.ContainsFunc(kids, func(p Proc) bool { return p.PID == pid }), "reaped")
}

// A process's name may hold spaces and parentheses: the fields are read
// after the last one.
func TestParseStatTakesAnyName(t *testing.T) {
	p, err := parseStat(42, "42 (a) (b c) S 7 42 40 0 -1")
	require.NoError(t, err)
	assert.Equal(t, Proc{PID: 42, PPID: 7, PGID: 42, SID: 40, Name: "a) (b c"}, p)
	for _, bad := range []string{"", "42 a S 7 42 40", "42 (x) S 7", "42 (x) S seven 42 40"} {
		_, err := parseStat(42, bad)
		assert.Error(t, err, bad)
	}
}
