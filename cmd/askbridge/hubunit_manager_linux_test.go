package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manageHub plays the user's service manager, as the hub's user: for a
// socket-activated hub it binds 127.0.0.1 and [::1] on port, as
// --print-unit's socket unit does, and keeps them; it starts the hub (on
// those sockets, or by hand), kill -9's it once the page answers, says
// KILLED, waits for GO on stdin, starts the hub again the same way and says
// ANSWERED once the page answers again.
func manageHub(t *testing.T, mode, home, port string) {
	var held []*os.File
	if mode == "socket activated" {
		for _, host := range []string{"127.0.0.1", "::1"} {
			ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
			require.NoError(t, err)
			defer ln.Close() // the manager holds the port until it ends
			f, err := ln.(*net.TCPListener).File()
			require.NoError(t, err)
			held = append(held, f)
		}
	}
	logFile := filepath.Join(home, "hub.log")
	hub := startManagedHub(t, home, port, held, logFile)
	pageAnswers(t, port, logFile)
	require.NoError(t, hub.Process.Kill())
	hub.Wait()
	fmt.Println("KILLED")
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "GO\n", line)
	hub = startManagedHub(t, home, port, held, logFile)
	pageAnswers(t, port, logFile)
	if held != nil {
		b, _ := os.ReadFile(logFile)
		assert.Contains(t, string(b), "the page's port is held by the service manager")
	}
	fmt.Println("ANSWERED")
	hub.Process.Signal(syscall.SIGTERM)
	hub.Wait()
}

// startManagedHub starts askbridge hub as systemd would: on the sockets
// held (none: by hand) as fds 3 and on, LISTEN_FDS saying how many and
// LISTEN_PID its own pid, which sh knows before it execs the hub.
func startManagedHub(t *testing.T, home, port string, held []*os.File, logFile string) *exec.Cmd {
	log, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	require.NoError(t, err)
	defer log.Close()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ASKBRIDGE_HUB") && !strings.HasPrefix(kv, "LISTEN_") {
			env = append(env, kv)
		}
	}
	env = append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"), "XDG_RUNTIME_DIR="+filepath.Join(home, "run"))
	require.NoError(t, os.MkdirAll(filepath.Join(home, "run"), 0o700))
	script := `exec "$0" "$@"`
	if held != nil {
		script = `export LISTEN_PID=$$; exec "$0" "$@"`
		env = append(env, fmt.Sprintf("LISTEN_FDS=%d", len(held)), "LISTEN_FDNAMES=askbridge-hub:askbridge-hub")
	}
	cmd := exec.Command("/bin/sh", "-c", script, askbridgeBin, "hub", "--listen", "127.0.0.1:"+port)
	cmd.Env, cmd.Stderr, cmd.ExtraFiles = env, log, held
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd
}

// pageAnswers waits for the hub's page to prove its key on 127.0.0.1 and
// [::1] both, as a tab at localhost asks.
func pageAnswers(t *testing.T, port, logFile string) {
	client := &http.Client{Timeout: 2 * time.Second}
	for _, host := range []string{"127.0.0.1", "::1"} {
		var last string
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			req, _ := http.NewRequest("GET", "http://"+net.JoinHostPort(host, port)+"/api/prove?nonce=AAAAAAAAAAAAAAAAAAAAAA", nil)
			req.Host = "localhost:" + port
			resp, err := client.Do(req)
			if err == nil {
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if strings.Contains(string(b), `"key":"ed25519:`) {
					break
				}
				last = resp.Status + " " + string(b)
			} else {
				last = err.Error()
			}
			if time.Now().After(deadline) {
				b, _ := os.ReadFile(logFile)
				t.Fatalf("the hub's page does not answer on %s: %s\nthe hub's log:\n%s", host, last, b)
			}
		}
	}
}
