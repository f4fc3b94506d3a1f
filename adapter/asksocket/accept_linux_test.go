//go:build linux

package asksocket

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay/relaytest"
)

const emfileChildEnv = "ASKBRIDGE_TEST_EMFILE_CHILD"

// TestSocketAcceptSurvivesRunningOutOfDescriptors runs out of file
// descriptors while an `askbridge ask` connection waits to be accepted, in a
// child process with a lowered RLIMIT_NOFILE (the limit is per process, and
// the rest of the suite needs its descriptors). Once descriptors are free
// again both that connection and a new one must be served, and the failed
// accept must have been logged.
func TestSocketAcceptSurvivesRunningOutOfDescriptors(t *testing.T) {
	if os.Getenv(emfileChildEnv) != "" {
		emfileChild(t)
		return
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-test.run=^TestSocketAcceptSurvivesRunningOutOfDescriptors$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), emfileChildEnv+"=1", "GORACE=atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child:\n%s", out)
	assert.Contains(t, string(out), "emfile child: served after EMFILE", "the child ran the scenario")
}

// askNothing is the Asker of a test whose connections never ask.
func askNothing(context.Context, json.RawMessage) (any, error) { return nil, nil }

// emfileChild is the scenario, run in the child process.
func emfileChild(t *testing.T) {
	logs := &relaytest.Buffer{}
	s, err := Listen()
	require.NoError(t, err)
	stop := s.Serve(askNothing, slog.New(slog.NewTextHandler(logs, nil)))
	defer stop()
	path := s.Path()

	// The client's socket is made while descriptors are free: connecting it
	// later needs none, so nothing else in the process (the runtime, the race
	// detector) can take the one it would need.
	clientFD, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	require.NoError(t, err)

	entries, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	lim.Cur = uint64(len(entries) + 16)
	require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))

	// Take every free descriptor, then give one back for the client's end.
	var filler []int
	for {
		fd, err := syscall.Open("/dev/null", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			require.ErrorIs(t, err, syscall.EMFILE)
			break
		}
		filler = append(filler, fd)
	}
	require.NotEmpty(t, filler)
	require.NoError(t, syscall.Connect(clientFD, &syscall.SockaddrUnix{Name: path}))
	// The server's accept now fails with EMFILE: wait for it to say so.
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "too many open files") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	for _, fd := range filler {
		syscall.Close(fd)
	}
	assert.Contains(t, logs.String(), "accept failed", "the accept error is logged")
	clientFile := os.NewFile(uintptr(clientFD), "client")
	first, err := net.FileConn(clientFile)
	require.NoError(t, err)
	clientFile.Close()
	defer first.Close()

	second, err := net.Dial("unix", path)
	require.NoError(t, err)
	defer second.Close()
	for i, c := range []net.Conn{first, second} {
		c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, `{"jsonrpc":"2.0","id":%d,"method":"nope"}`+"\n", i)
		line, err := bufio.NewReader(c).ReadString('\n')
		require.NoError(t, err, "connection %d is never served", i)
		assert.Contains(t, line, "unknown method nope")
	}
	fmt.Println("emfile child: served after EMFILE")
}
