//go:build live

package live

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/fakemodel"
)

var (
	askbridgeBin string
	liveDir      string // this directory, where node_modules is
)

func TestMain(m *testing.M) {
	_, file, _, _ := runtime.Caller(0)
	liveDir = filepath.Dir(file)
	if _, err := os.Stat(filepath.Join(liveDir, "node_modules", ".askbridge-installed")); err != nil {
		fmt.Fprintln(os.Stderr, "live tests: the agents are not installed; run live/install.sh first")
		os.Exit(1)
	}
	dir, err := os.MkdirTemp("", "askbridge-live")
	if err != nil {
		panic(err)
	}
	askbridgeBin = filepath.Join(dir, "askbridge")
	build := exec.Command("go", "build", "-race", "-o", askbridgeBin, "./cmd/askbridge")
	build.Dir = filepath.Dir(liveDir)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building askbridge: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// agent is how to start one real agent against a fake model.
type agent struct {
	name string
	tool string // its question tool, as the model sees it
	argv func(home string) []string
	env  func(home, modelURL string) []string
}

var commonEnv = []string{"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "NO_COLOR=1"}

var claude = agent{
	name: "claude-agent-acp",
	tool: "AskUserQuestion",
	argv: func(string) []string {
		return []string{"node", filepath.Join(liveDir, "node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js")}
	},
	env: func(home, url string) []string {
		return append([]string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(home, ".claude"), "ANTHROPIC_BASE_URL=" + url,
			"ANTHROPIC_API_KEY=sk-fake", "IS_SANDBOX=1"}, commonEnv...)
	},
}

var qwen = agent{
	name: "qwen-code",
	tool: "ask_user_question",
	argv: func(string) []string {
		return []string{"node", filepath.Join(liveDir, "node_modules/@qwen-code/qwen-code/cli.js"), "--acp"}
	},
	env: func(home, url string) []string {
		os.MkdirAll(filepath.Join(home, ".qwen"), 0o700)
		os.WriteFile(filepath.Join(home, ".qwen", "settings.json"), []byte(`{"security":{"auth":{"selectedType":"openai"}}}`), 0o600)
		return append([]string{"HOME=" + home, "OPENAI_API_KEY=sk-fake", "OPENAI_BASE_URL=" + url + "/v1", "OPENAI_MODEL=fake-model"}, commonEnv...)
	},
}

// session is one run: a fake model, askbridge (or the agent directly) and a
// scripted client.
type session struct {
	t      *testing.T
	model  *fakemodel.Server
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan map[string]any
	seq    int
	wmu    sync.Mutex
	stderr *strings.Builder
	answer func(req map[string]any) string // answers session/request_permission
	// onRequest answers other requests from the agent side when it returns true.
	onRequest func(m map[string]any) (string, bool)
	updates   []map[string]any
	umu       sync.Mutex
}

type runOpts struct {
	direct     bool     // run the agent without askbridge
	clientCaps string   // clientCapabilities JSON; default without elicitation
	flags      []string // askbridge flags
	answer     func(req map[string]any) string
	calls      []json.RawMessage
}

func start(t *testing.T, a agent, o runOpts) *session {
	t.Helper()
	model, err := fakemodel.Start(fakemodel.Script{Tool: a.tool, Calls: o.calls}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(model.Close)
	home := t.TempDir()
	argv := a.argv(home)
	if !o.direct {
		argv = append(append(append([]string{askbridgeBin, "--log-level=debug"}, o.flags...), "--"), argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = home
	cmd.Env = append(os.Environ(), a.env(home, model.URL)...)
	cmd.Env = append(cmd.Env, "GORACE=atexit_sleep_ms=0")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr := &strings.Builder{}
	cmd.Stderr = &lockedWriter{w: stderr}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, model: model, cmd: cmd, stdin: stdin, lines: make(chan map[string]any, 4096), stderr: stderr, answer: o.answer}
	t.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Log("the agent did not exit after stdin closed; killing its process group")
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		if t.Failed() {
			t.Logf("stderr of %s:\n%s", a.name, tail(stderr.String(), 6000))
		}
	})
	go s.read(stdout)
	return s
}

type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// read answers the agent's requests as a client would and queues the rest.
func (s *session) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<28)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			s.t.Errorf("a line on stdout is not JSON: %q", tail(sc.Text(), 300))
			continue
		}
		method, _ := m["method"].(string)
		id, hasID := m["id"]
		switch {
		case method == "session/update":
			s.umu.Lock()
			s.updates = append(s.updates, m)
			s.umu.Unlock()
		case method == "session/request_permission" && hasID:
			result := `{"outcome":{"outcome":"cancelled"}}`
			if s.answer != nil {
				result = s.answer(m)
			}
			s.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": json.RawMessage(result)})
			continue
		case method != "" && hasID && s.onRequest != nil:
			if result, ok := s.onRequest(m); ok {
				s.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": json.RawMessage(result)})
				continue
			}
			s.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32601, "message": "not supported by the test client: " + method}})
			continue
		case method != "" && hasID:
			s.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32601, "message": "not supported by the test client: " + method}})
			continue
		}
		s.lines <- m
	}
	close(s.lines)
}

func (s *session) send(v any) {
	b, _ := json.Marshal(v)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.stdin.Write(append(b, '\n'))
}

func (s *session) call(method string, params any, timeout time.Duration) map[string]any {
	s.t.Helper()
	s.seq++
	id := fmt.Sprintf("live-%d", s.seq)
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	deadline := time.After(timeout)
	for {
		select {
		case m, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("%s: the agent closed its output", method)
			}
			if m["id"] == id {
				if e, ok := m["error"]; ok {
					s.t.Fatalf("%s failed: %v", method, e)
				}
				return m["result"].(map[string]any)
			}
		case <-deadline:
			s.t.Fatalf("%s: no answer within %s", method, timeout)
		}
	}
}

// turn runs initialize, session/new and one prompt, and returns the stop reason.
func (s *session) turn(clientCaps string, prompt string) string {
	s.t.Helper()
	if clientCaps == "" {
		clientCaps = `{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}`
	}
	s.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": json.RawMessage(clientCaps), "clientInfo": map[string]any{"name": "askbridge-live", "version": "1"}}, 90*time.Second)
	sess := s.call("session/new", map[string]any{"cwd": s.cmd.Dir, "mcpServers": []any{}}, 90*time.Second)
	id := sess["sessionId"].(string)
	res := s.call("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": prompt}}}, 3*time.Minute)
	stop, _ := res["stopReason"].(string)
	return stop
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

var _ = context.Background
