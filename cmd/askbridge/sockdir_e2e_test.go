//go:build linux

package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeListener listens on path as someone posing as askbridge's hub or
// ask socket would, and counts who connects.
func fakeListener(t *testing.T, path string) *atomic.Int32 {
	ln, err := net.Listen("unix", path)
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	return &n
}

// runAskbridge runs askbridge with args and env added, and returns its exit code
// and combined output.
func runAskbridge(t *testing.T, env []string, args ...string) (int, string) {
	cmd := exec.Command(askbridgeBin, args...)
	cmd.Env = append(os.Environ(), append([]string{"GORACE=atexit_sleep_ms=0"}, env...)...)
	cmd.WaitDelay = time.Second
	done := make(chan struct{})
	time.AfterFunc(20*time.Second, func() {
		select {
		case <-done:
		default:
			cmd.Process.Kill()
		}
	})
	out, _ := cmd.CombinedOutput()
	close(done)
	return cmd.ProcessState.ExitCode(), string(out)
}

// A hub's socket in a folder another user owns is another user's hub:
// askbridge does not report to it, the inbox does not dial it, and a hub
// does not listen there. On c4ea460 another user could create
// /tmp/askbridge-UID first and collect every question and answer.
func TestE2EFakeHubInAFolderOfAnotherUser(t *testing.T) {
	t.Parallel()
	if os.Getuid() != 0 {
		t.Skip("needs root, to give a folder to another uid")
	}
	theirs := filepath.Join(privateDir(t), "theirs")
	require.NoError(t, os.Mkdir(theirs, 0o700))
	sock := filepath.Join(theirs, "hub.sock")
	hubConns, inboxConns := fakeListener(t, sock), fakeListener(t, filepath.Join(theirs, "hub.inbox.sock"))
	require.NoError(t, os.Chown(theirs, 65534, 65534))
	want := "the socket folder " + theirs + " is owned by uid 65534, not this user's 0"

	code, out := runAskbridge(t, nil, "inbox", "--hub", sock)
	assert.Equal(t, 1, code)
	assert.Equal(t, "askbridge inbox: "+want+": it must be a directory of this user's alone (mode 0700, not a symbolic link)\n", out)

	code, out = runAskbridge(t, []string{"ASKBRIDGE_HUB=" + sock}, "hub", "--listen", "127.0.0.1:0")
	assert.Equal(t, 1, code)
	assert.Contains(t, out, want)

	c := startClient(t, "--hub", sock)
	c.hubSetup(theirs)
	time.Sleep(2500 * time.Millisecond) // the reporter looks every second
	assert.Zero(t, hubConns.Load(), "askbridge reported to another user's hub")
	assert.Zero(t, inboxConns.Load(), "the inbox dialled another user's hub")
}

// A socket folder open to others, or a symbolic link, is refused by
// whoever would listen on or dial a socket in it, with what is wrong.
func TestE2ESocketFolderOpenOrLinkedIsRefused(t *testing.T) {
	t.Parallel()
	open := filepath.Join(privateDir(t), "open")
	require.NoError(t, os.Mkdir(open, 0o700))
	require.NoError(t, os.Chmod(open, 0o755))
	private := filepath.Join(privateDir(t), "private")
	require.NoError(t, os.Mkdir(private, 0o700))
	link := filepath.Join(privateDir(t), "link")
	require.NoError(t, os.Symlink(private, link))
	input := `{"questions":[{"question":"Deploy now?","header":"Deploy","options":[{"label":"Yes"},{"label":"Later"}]}]}`

	for dir, what := range map[string]string{open: "has mode 0755", link: "is a symbolic link"} {
		want := "the socket folder " + dir + " " + what
		asks := fakeListener(t, filepath.Join(dir, "ask-"+filepath.Base(dir)+".sock"))
		code, out := runAskbridge(t, []string{"ASKBRIDGE_SOCKET=" + filepath.Join(dir, "ask-"+filepath.Base(dir)+".sock")}, "ask", input)
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, want)
		assert.Zero(t, asks.Load(), "askbridge ask dialled it")

		code, out = runAskbridge(t, nil, "inbox", "--hub", filepath.Join(dir, "hub.sock"))
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, want)

		code, out = runAskbridge(t, []string{"ASKBRIDGE_HUB=" + filepath.Join(dir, "hub.sock")}, "hub", "--listen", "127.0.0.1:0")
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, want)
	}
}
