//go:build unix

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/pty"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// demoProc is `askbridge demo ARGS` with its stdin held open, as a user at
// a terminal who has not answered yet.
type demoProc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *lockedBuffer
	stderr chan string // its lines
	done   chan error
	tty    *lockedBuffer // its terminal, with --desk (the pairing code)
}

func startDemo(t *testing.T, env []string, args ...string) *demoProc {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, askbridgeBin, append([]string{"demo"}, args...)...)
	cmd.Env = append(append(os.Environ(), "GORACE=atexit_sleep_ms=0", "ASKBRIDGE_SOCKET="), env...)
	d := &demoProc{cmd: cmd, out: &lockedBuffer{}, stderr: make(chan string, 100), done: make(chan error, 1)}
	cmd.Stdout = d.out
	var err error
	d.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	if slices.Contains(args, "--desk") {
		term, err := pty.Start(cmd)
		if err != nil {
			t.Skip("no pseudo-terminal here for the desk's pairing code:", err)
		}
		t.Cleanup(func() { term.Close() })
		d.tty = &lockedBuffer{}
		go io.Copy(d.tty, term)
	} else {
		require.NoError(t, cmd.Start())
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			d.stderr <- sc.Text()
		}
		close(d.stderr)
		d.done <- cmd.Wait()
	}()
	t.Cleanup(func() { d.stdin.Close(); cmd.Process.Kill() })
	return d
}

func (d *demoProc) wait(t *testing.T) {
	t.Helper()
	for range d.stderr {
	}
	select {
	case err := <-d.done:
		require.NoError(t, err, "the demo exits 0; stdout:\n%s", d.out)
	case <-time.After(30 * time.Second):
		t.Fatalf("the demo did not end; stdout:\n%s", d.out)
	}
}

// askbridge demo --desk: the demo's questions are on the desk too, and an
// answer there settles the terminal's prompt, as for any askbridge.
func TestDemoWithADeskAnsweredThere(t *testing.T) {
	t.Parallel()
	d := startDemo(t, nil, "--hub", "off", "--desk", "127.0.0.1:0")
	var deskURL string
	for line := range d.stderr {
		if u, ok := strings.CutPrefix(line, "askbridge: desk at "); ok {
			deskURL = u
			break
		}
	}
	require.NotEmpty(t, deskURL, "the demo says where its desk is")
	base, _, _ := strings.Cut(deskURL, " ")
	base = strings.TrimSuffix(base, "/")
	var code []string
	for deadline := time.Now().Add(10 * time.Second); code == nil; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "no pairing code on the demo's terminal: %q", d.tty.String())
		code = regexp.MustCompile(`desk pairing code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})`).FindStringSubmatch(d.tty.String())
	}
	client, err := desk.Pair(t.Context(), base, code[1], false)
	require.NoError(t, err)
	client.Timeout = 5 * time.Second
	call := func(method, path, body string, out any) {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		require.NoError(t, err)
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s %s", method, path)
		require.NoError(t, json.NewDecoder(resp.Body).Decode(out))
	}
	var sets []struct{ ID string }
	require.Eventually(t, func() bool { call("GET", "/question", "", &sets); return len(sets) == 1 }, 15*time.Second, 50*time.Millisecond)
	// Answered once the terminal asks, so there is a prompt to withdraw.
	require.Eventually(t, func() bool { return strings.Contains(d.out.String(), "Enter number") }, 15*time.Second, 20*time.Millisecond)
	var ok2 bool
	call("POST", "/question/"+sets[0].ID+"/reply", `{"answers":[["SQLite"],["Auth","Metrics"],["my-svc"]]}`, &ok2)
	assert.True(t, ok2)
	d.wait(t)
	out := d.out.String()
	// The prompt is on the terminal now that the demo has one (where the
	// desk's pairing code is).
	assert.Contains(t, out+d.tty.String(), "(settled elsewhere)", "the terminal's prompt was withdrawn")
	assert.Contains(t, out, "Which database should the service use? → SQLite")
	assert.Contains(t, out, "Which features do you want from day one? → Auth, Metrics")
	assert.Contains(t, out, "→ my-svc")
}

// With a hub running, the demo reports to it like any askbridge: its set is
// on the hub's board while it waits, and leaves it once answered.
func TestDemoReportsToARunningHub(t *testing.T) {
	t.Parallel()
	dir, err := os.MkdirTemp("", "abdemo") // short: a socket's path is bounded
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	ln, err := hub.Listen(sock)
	require.NoError(t, err)
	board := permission.NewBoard()
	h := hub.New(board, nil)
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { h.Serve(ctx, ln); close(served) }()
	t.Cleanup(func() { cancel(); <-served })

	d := startDemo(t, []string{"ASKBRIDGE_HUB=" + sock})
	require.Eventually(t, func() bool {
		sets := board.List()
		return len(sets) == 1 && sets[0].Questions[0].Question == "Which database should the service use?"
	}, 15*time.Second, 50*time.Millisecond, "the demo's set reaches the hub")
	insts := h.Instances()
	require.Len(t, insts, 1)
	assert.NotEmpty(t, insts[0].Agent)

	// The card's folder is where the demo runs (it said "/").
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NotNil(t, board.List()[0].Origin)
	assert.Equal(t, wd, board.List()[0].Origin.Folder)

	_, err = io.WriteString(d.stdin, "2\n1,2\n0\nmy-svc\n")
	require.NoError(t, err)
	var logged []string
	for l := range d.stderr {
		logged = append(logged, l)
	}
	d.wait(t)
	assert.Contains(t, d.out.String(), "Which database should the service use? → SQLite")
	// Its agent is askbridge's own: no warning meant for an agent that can
	// act as you in the middle of the demo (demo.Logger).
	assert.NotContains(t, strings.Join(logged, "\n"), "not contained")
	assert.Eventually(t, func() bool { return len(board.List()) == 0 }, 10*time.Second, 50*time.Millisecond, "answered in the terminal, the set leaves the hub")
}
