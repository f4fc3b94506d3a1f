package hub

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
)

// The agent is the hub: with no hub running (or once it has unlinked
// hub.sock), a process of the user binds the socket and answers the
// askbridge's approval "Allow". The askbridge reports there only to a hub
// that proves the key it trusts (run as an ordinary user; before the key
// the askbridge took the answer: it checked the listener's uid alone).
func TestAReporterRefusesAHubWithoutTheKey(t *testing.T) {
	out := asUser(t, 65534, "squat-key")
	assert.Contains(t, out, "REFUSED", out)
	assert.Contains(t, out, "it does not hold the hub's key", out)
	assert.NotContains(t, out, "ANSWERED", out)
}

// The same squatter, to `askbridge hub pair` (and the inbox, which dials
// the same way): it is refused before anything is asked.
func TestPairingRefusesAHubWithoutTheKey(t *testing.T) {
	out := asUser(t, 65534, "squat-pair")
	assert.Contains(t, out, "REFUSED", out)
	assert.Contains(t, out, "it does not hold the hub's key", out)
	assert.NotContains(t, out, "CODE", out)
}

// The same with the hub's real key, which an agent that is not contained
// can read: its hub runs inside the askbridge's own tree, and is refused
// for that (before, it was taken).
func TestAReporterRefusesAHubInItsAgentsTree(t *testing.T) {
	out := asUser(t, 65534, "squat-tree")
	assert.Contains(t, out, "REFUSED", out)
	assert.Contains(t, out, "inside this askbridge's own process tree", out)
	assert.NotContains(t, out, "ANSWERED", out)
}

func init() {
	roles["squat-key"] = func(t *testing.T) {
		real, fake := configWithKey(t), configWithKey(t)
		path := squatSocket(t)
		t.Setenv("XDG_CONFIG_HOME", fake)
		allowAll(t, path)
		out, _ := child("reporter", "XDG_CONFIG_HOME="+real, "ASKBRIDGE_TEST_SOCK="+path).CombinedOutput()
		fmt.Printf("%s", out)
	}
	roles["squat-pair"] = func(t *testing.T) {
		real, fake := configWithKey(t), configWithKey(t)
		path := squatSocket(t)
		t.Setenv("XDG_CONFIG_HOME", fake)
		allowAll(t, path)
		out, _ := child("pairask", "XDG_CONFIG_HOME="+real, "ASKBRIDGE_TEST_SOCK="+path).CombinedOutput()
		fmt.Printf("%s", out)
	}
	roles["squat-tree"] = func(t *testing.T) {
		real := configWithKey(t)
		out, _ := child("reporter", "XDG_CONFIG_HOME="+real, "ASKBRIDGE_TEST_SOCK="+squatSocket(t), "ASKBRIDGE_TEST_AGENT_HUB=1").CombinedOutput()
		fmt.Printf("%s", out)
	}
	roles["fakehub"] = func(t *testing.T) {
		allowAll(t, os.Getenv("ASKBRIDGE_TEST_SOCK"))
		fmt.Println("LISTENING")
		io.Copy(io.Discard, os.Stdin) // until the askbridge that started it ends
	}
	roles["reporter"] = reporterRole
}

// reporterRole is an askbridge with an approval pending, reporting to the
// socket; with ASKBRIDGE_TEST_AGENT_HUB its agent serves that socket.
func reporterRole(t *testing.T) {
	path := os.Getenv("ASKBRIDGE_TEST_SOCK")
	if os.Getenv("ASKBRIDGE_TEST_AGENT_HUB") != "" {
		agent := child("fakehub")
		stdout, err := agent.StdoutPipe()
		require.NoError(t, err)
		stdin, err := agent.StdinPipe()
		require.NoError(t, err)
		require.NoError(t, agent.Start())
		defer func() { stdin.Close(); agent.Process.Kill(); agent.Wait() }()
		sc := bufio.NewScanner(stdout)
		for sc.Scan() && !strings.Contains(sc.Text(), "LISTENING") {
		}
		require.NoError(t, sc.Err())
	}
	board := permission.NewBoard()
	ticket := approval(board)
	refused := make(chan string, 1)
	logger := slog.New(&watchHandler{on: "hub: not reporting", got: refused})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	Report(ctx, board, path, Instance{Agent: "agent", PID: os.Getpid()}, logger)
	select {
	case <-ticket.Done():
		fmt.Printf("ANSWERED %+v\n", ticket.Result())
	case line := <-refused:
		fmt.Println("REFUSED", line)
	case <-time.After(20 * time.Second):
		fmt.Println("TIMEOUT")
	}
}

// configWithKey is a config folder with a hub key of its own.
func configWithKey(t *testing.T) string {
	dir := t.TempDir()
	_, err := hubkey.Open(filepath.Join(dir, "askbridge", "hub-key"))
	require.NoError(t, err)
	return dir
}

func squatSocket(t *testing.T) string {
	return filepath.Join(t.TempDir(), "run", "hub.sock")
}

// allowAll serves a hub on path (with the key of $XDG_CONFIG_HOME) whose
// page answers every set with its first option, Allow, and which gives
// pairing codes.
func allowAll(t *testing.T, path string) {
	ln, err := Listen(path)
	require.NoError(t, err)
	board := permission.NewBoard()
	h := New(board, nil)
	h.Pair(Pairing{Devices: pairing.Memory(), URL: func(code string) string { return "#pair=" + code }}) // a code of its own, to phish with
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go h.Serve(ctx, ln)
	go func() {
		for ev := range board.Subscribe(ctx) {
			if ev.Type == permission.EventAsked {
				q := ev.Pending.Questions[0]
				board.Settle(ev.Pending.ID, permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{q.Options[0].Label}}, Path: "questions[0]"}}}, permission.ByEditor())
			}
		}
	}()
}

// watchHandler hands on the first record whose message starts with on,
// with its error.
type watchHandler struct {
	on  string
	got chan string
}

func (w *watchHandler) Enabled(context.Context, slog.Level) bool { return true }
func (w *watchHandler) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w *watchHandler) WithGroup(string) slog.Handler            { return w }
func (w *watchHandler) Handle(_ context.Context, r slog.Record) error {
	if !strings.HasPrefix(r.Message, w.on) {
		return nil
	}
	line := r.Message
	r.Attrs(func(a slog.Attr) bool { line += " " + a.String(); return true })
	select {
	case w.got <- line:
	default:
	}
	return nil
}
