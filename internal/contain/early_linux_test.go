package contain

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/contain/prestart"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// earlyInit starts an init as askbridge does at its start (this test
// binary is the init), or skips where the system refuses.
func earlyInit(t *testing.T) *early {
	t.Helper()
	i, err := prestart.Start()
	if err != nil {
		t.Skip("this system does not contain: ", err)
	}
	return earlyOf(i)
}

// ran starts sh -c script through start, feeding stdin, and returns what
// it wrote and how the init ended.
func ran(t *testing.T, start func(*exec.Cmd) (*exec.Cmd, error), script, stdin string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "ASKBRIDGE_TEST_VAR=from the orders"}
	cmd.Dir = t.TempDir()
	inR, inW, err := os.Pipe()
	require.NoError(t, err)
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, outW
	init, err := start(cmd)
	inR.Close()
	outW.Close()
	require.NoError(t, err)
	inW.WriteString(stdin)
	inW.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() { out.ReadFrom(outR); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		init.Process.Kill()
		t.Fatal("the agent did not end")
	}
	return out.String(), init.Wait()
}

const probe = `echo "pid 1 $(tr '\0' ' ' < /proc/1/cmdline)"; echo "var $ASKBRIDGE_TEST_VAR"; echo "dir $(pwd)"; read line; echo "read $line"; exit 7`

// An init started early runs the agent as a late one would: in its PID
// namespace (the agent is its first child), with the environment, folder
// and pipes of the agent's command, and ends with the agent's status.
func TestAnEarlyInitRunsTheAgentItIsSent(t *testing.T) {
	e := earlyInit(t)
	var dir string
	out, err := ran(t, func(cmd *exec.Cmd) (*exec.Cmd, error) {
		dir = cmd.Dir
		init, err, used := e.start(cmd, Options{})
		require.True(t, used)
		return init, err
	}, probe, "hello\n")
	assert.Contains(t, out, "pid 1 askbridge __contain-init -await", "the agent's PID 1 is the init")
	assert.Contains(t, out, "var from the orders\n")
	assert.Contains(t, out, "dir "+dir+"\n")
	assert.Contains(t, out, "read hello\n")
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "%v", err)
	assert.Equal(t, 7, exit.ExitCode())
}

// Fd 3 is the init's line to askbridge (the status pipe; the orders
// socket): an agent that inherited it could write a status line of its
// own ("refused", and askbridge --contain auto would run it again,
// uncontained). Neither init hands it on. Failed before: the agent had 3.
func TestTheAgentDoesNotInheritTheInitsLineToAskbridge(t *testing.T) {
	for name, start := range map[string]func(*testing.T) func(*exec.Cmd) (*exec.Cmd, error){
		"late": func(*testing.T) func(*exec.Cmd) (*exec.Cmd, error) {
			return func(cmd *exec.Cmd) (*exec.Cmd, error) { return Start(cmd, Options{}) }
		},
		"early": func(t *testing.T) func(*exec.Cmd) (*exec.Cmd, error) {
			e := earlyInit(t)
			return func(cmd *exec.Cmd) (*exec.Cmd, error) {
				init, err, _ := e.start(cmd, Options{})
				return init, err
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			out, err := ran(t, func(cmd *exec.Cmd) (*exec.Cmd, error) {
				init, err := start(t)(cmd)
				if errors.Is(err, ErrRefused) {
					t.Skip("this system does not contain: ", err)
				}
				return init, err
			}, `if [ -e /proc/$$/fd/3 ]; then echo "fd 3 inherited"; else echo "no fd 3"; fi`, "")
			require.NoError(t, err)
			assert.Equal(t, "no fd 3\n", out)
		})
	}
}

// An early init nobody sends orders to ends once askbridge lets it go:
// nothing is left waiting.
func TestAnUnusedEarlyInitEnds(t *testing.T) {
	e := earlyInit(t)
	e.drop()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(e.init.Process.Pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatal("the early init is still running")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// An agent the init cannot start is the agent's error (as for a late
// init), not a refusal to contain it; the init is gone.
func TestAnEarlyInitSaysWhyTheAgentDidNotStart(t *testing.T) {
	e := earlyInit(t)
	cmd := exec.Command("/askbridge-no-such-folder/agent")
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	_, err, used := e.start(cmd, Options{})
	require.True(t, used)
	assert.ErrorIs(t, err, syscall.ENOENT)
	assert.False(t, errors.Is(err, ErrRefused), "%v", err)
	assert.Error(t, syscall.Kill(e.init.Process.Pid, 0), "the init was waited for")
}
