package relay_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay"
)

// stat reads pid's state and parent from /proc.
func stat(pid int) (state string, ppid int, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", 0, false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	ppid, _ = strconv.Atoi(f[1])
	return f[0], ppid, true
}

// A process the agent double-forks (and one that also leaves its
// session) stays below askbridge: askbridge is the agent's child
// subreaper, so the hub still finds it inside the agent's tree. Once it
// ends, askbridge reaps it: no zombie is left.
func TestDoubleForkedOrphansStayBelowAskbridge(t *testing.T) {
	dir := t.TempDir()
	script := `(sleep 30 & echo $! > "$1/plain") ; (setsid sleep 30 & echo $! > "$1/setsid") ; (sh -c 'sleep 0.2' & echo $! > "$1/brief"); exec sleep 30`
	a, err := relay.StartAgent([]string{"/bin/sh", "-c", script, "agent", dir}, nil, nil)
	require.NoError(t, err)
	defer a.Stop(time.Second)

	pids := map[string]int{}
	require.Eventually(t, func() bool {
		for _, name := range []string{"plain", "setsid", "brief"} {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || len(b) == 0 || b[len(b)-1] != '\n' {
				return false
			}
			pids[name], _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		return true
	}, 5*time.Second, 10*time.Millisecond)

	for _, name := range []string{"plain", "setsid"} {
		require.Eventually(t, func() bool {
			_, ppid, ok := stat(pids[name])
			return ok && ppid == os.Getpid()
		}, 5*time.Second, 10*time.Millisecond, "the %s orphan's parent is askbridge", name)
	}
	require.Eventually(t, func() bool {
		_, _, ok := stat(pids["brief"])
		return !ok
	}, 5*time.Second, 10*time.Millisecond, "the brief orphan is reaped, not left a zombie")
	state, _, _ := stat(a.Pid())
	assert.NotEqual(t, "Z", state, "the agent itself is os/exec's to wait for")
}
