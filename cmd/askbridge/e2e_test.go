package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/pty"
	"github.com/askbridge/askbridge/route/desk"
)

// client is a fake ACP client driving the built askbridge binary, which
// runs the scripted agent.
type client struct {
	t     *testing.T
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan map[string]any
	seq   int
	watch *schemaWatch  // askbridge's own lines, checked against the ACP schema
	tty   *lockedBuffer // askbridge's terminal, with --desk (its pairing code)
}

func startClient(t *testing.T, flags ...string) *client {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	args := append(append([]string{}, flags...), "--")
	args = append(args, e2eAgentCommand(t)...)
	cmd := exec.CommandContext(ctx, askbridgeBin, args...)
	watch := newSchemaWatch(filepath.Join(t.TempDir(), "agent.jsonl"))
	cmd.Env = append(os.Environ(), "ASKBRIDGE_E2E_AGENT=1", "GORACE=atexit_sleep_ms=0", agentLogEnv+"="+watch.agentLog)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	c := &client{t: t, cmd: cmd, in: in, lines: make(chan map[string]any, 256), watch: watch}
	if slices.Contains(flags, "--desk") {
		// A terminal of its own, where the desk shows its pairing code.
		term, err := pty.Start(cmd)
		if err != nil {
			t.Skip("no pseudo-terminal here for the desk's pairing code:", err)
		}
		t.Cleanup(func() { term.Close() })
		c.tty = &lockedBuffer{}
		go io.Copy(c.tty, term)
	} else {
		require.NoError(t, cmd.Start())
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<26)
		for sc.Scan() {
			watch.got(sc.Bytes())
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("askbridge wrote a line that is not JSON to stdout: %q", sc.Text())
				continue
			}
			c.lines <- m
		}
		close(c.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("askbridge did not exit after its stdin closed")
			cmd.Process.Kill()
		}
		cancel()
		watchSchema(t, watch)
	})
	return c
}

func (c *client) send(v any) {
	c.t.Helper()
	b, _ := json.Marshal(v)
	c.watch.sent(b)
	_, err := c.in.Write(append(b, '\n'))
	require.NoError(c.t, err)
}

func (c *client) request(method string, params any) string {
	c.seq++
	id := fmt.Sprintf("c%d", c.seq)
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return id
}

// next returns the next line for which keep is true, dropping others.
func (c *client) next(keep func(m map[string]any) bool) map[string]any {
	c.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case m, ok := <-c.lines:
			require.True(c.t, ok, "askbridge closed stdout")
			if keep(m) {
				return m
			}
		case <-timeout:
			c.t.Fatal("timed out waiting for askbridge")
		}
	}
}

func (c *client) response(id string) map[string]any {
	return c.next(func(m map[string]any) bool { return m["id"] == id && m["method"] == nil })
}

func (c *client) permissionRequest() map[string]any {
	return c.next(func(m map[string]any) bool { return m["method"] == "session/request_permission" })
}

func (c *client) reply(req map[string]any, result string) {
	c.send(map[string]any{"jsonrpc": "2.0", "id": req["id"], "result": json.RawMessage(result)})
}

// agentSaw returns the text of the agent's message: what it received.
func (c *client) agentSaw() string {
	m := c.next(func(m map[string]any) bool {
		if m["method"] != "session/update" {
			return false
		}
		u := m["params"].(map[string]any)["update"].(map[string]any)
		return u["sessionUpdate"] == "agent_message_chunk"
	})
	return m["params"].(map[string]any)["update"].(map[string]any)["content"].(map[string]any)["text"].(string)
}

func (c *client) setup() string {
	id := c.request("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"fs": map[string]any{"readTextFile": true}}})
	init := c.response(id)
	seen := init["result"].(map[string]any)["_meta"].(map[string]any)["sawClientCapabilities"]
	require.Contains(c.t, jsonString(seen), `"elicitation":{"form":{},"url":{}}`, "askbridge advertises form and URL elicitation")
	id = c.request("session/new", map[string]any{"cwd": "/tmp", "mcpServers": []any{}})
	return c.response(id)["result"].(map[string]any)["sessionId"].(string)
}

// prompt makes the scripted agent send method with params.
func (c *client) prompt(session, method string, params any) string {
	return c.request("session/prompt", map[string]any{"sessionId": session, "prompt": []any{map[string]any{"type": "text", "text": jsonString(map[string]any{"method": method, "params": params})}}})
}

func question(text, header string, multi bool, labels ...string) map[string]any {
	var opts []any
	for _, l := range labels {
		opts = append(opts, map[string]any{"label": l, "description": "about " + l})
	}
	return map[string]any{"question": text, "header": header, "multiSelect": multi, "options": opts}
}

func TestE2ESingleMultiAndOtherThroughTheBinary(t *testing.T) {
	t.Parallel()
	c := startClient(t)
	s := c.setup()
	turn := c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{
		question("Which database?", "Database", false, "Postgres", "SQLite"),
		question("Which languages?", "Languages", true, "Go", "Rust", "C"),
		question("Which CI?", "CI", false, "GitHub", "GitLab"),
		question("Any notes?", "Notes", false, "None", "Some"),
	}})
	req := c.permissionRequest()
	assert.Equal(t, "Database (1/4)", req["params"].(map[string]any)["toolCall"].(map[string]any)["title"])
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"Postgres"}}`)
	req = c.permissionRequest()
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","C"]}}}`)
	req = c.permissionRequest()
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"Buildkite"}}}`)
	req = c.permissionRequest()
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"__other__"}}`)
	saw := c.agentSaw()
	var result struct {
		Behavior     string
		UpdatedInput struct{ Answers map[string]string }
	}
	require.NoError(t, json.Unmarshal([]byte(saw), &result))
	assert.Equal(t, "allow", result.Behavior)
	assert.Equal(t, "Postgres", result.UpdatedInput.Answers["Which database?"])
	assert.Equal(t, "Go, C", result.UpdatedInput.Answers["Which languages?"])
	assert.Equal(t, "Buildkite", result.UpdatedInput.Answers["Which CI?"])
	assert.Contains(t, result.UpdatedInput.Answers["Any notes?"], "type their own answer in the chat")
	assert.Equal(t, "end_turn", c.response(turn)["result"].(map[string]any)["stopReason"])
}

func TestE2EMultiSelectOneAtATimeThroughTheBinary(t *testing.T) {
	t.Parallel()
	c := startClient(t)
	s := c.setup()
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which languages?", "Languages", true, "Go", "Rust", "C")}})
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"Rust"}}`)
	req := c.permissionRequest()
	assert.Contains(t, jsonString(req["params"]), `"optionId":"__done__"`)
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"Go"}}`)
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"__done__"}}`)
	assert.Contains(t, c.agentSaw(), `"Which languages?":"Go, Rust"`)
}

func TestE2ECancelAtTheFirstOfThreeThroughTheBinary(t *testing.T) {
	t.Parallel()
	c := startClient(t)
	s := c.setup()
	turn := c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{
		question("One?", "One", false, "a", "b"), question("Two?", "Two", false, "a", "b"), question("Three?", "Three", false, "a", "b")}})
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"behavior":"deny","message":"User cancelled the question","interrupt":true}`, c.agentSaw())
	c.response(turn)
	// Nothing further is asked: the next line after a probe is the probe's answer.
	probe := c.request("_probe/nothing", nil)
	m := c.next(func(m map[string]any) bool { return m["method"] == "session/request_permission" || m["id"] == probe })
	assert.Equal(t, probe, m["id"])
}

func TestE2ESessionCancelWhilePendingThroughTheBinary(t *testing.T) {
	t.Parallel()
	c := startClient(t)
	s := c.setup()
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("One?", "One", false, "a", "b")}})
	req := c.permissionRequest()
	c.send(map[string]any{"jsonrpc": "2.0", "method": "session/cancel", "params": map[string]any{"sessionId": s}})
	withdrawn := c.next(func(m map[string]any) bool { return m["method"] == "$/cancel_request" })
	assert.Equal(t, req["id"], withdrawn["params"].(map[string]any)["requestId"])
	assert.Contains(t, c.agentSaw(), `"behavior":"deny"`)
}

func TestE2ETwoSessionsAtOnceThroughTheBinary(t *testing.T) {
	t.Parallel()
	c := startClient(t)
	s1 := c.setup()
	s2 := c.response(c.request("session/new", map[string]any{"cwd": "/tmp", "mcpServers": []any{}}))["result"].(map[string]any)["sessionId"].(string)
	c.prompt(s1, "_askbridge/ask", map[string]any{"questions": []any{question("First?", "First", false, "a1", "b1")}})
	c.prompt(s2, "_askbridge/ask", map[string]any{"questions": []any{question("Second?", "Second", false, "a2", "b2")}})
	reqs := map[string]map[string]any{}
	for len(reqs) < 2 {
		r := c.permissionRequest()
		reqs[r["params"].(map[string]any)["sessionId"].(string)] = r
	}
	c.reply(reqs[s2], `{"outcome":{"outcome":"selected","optionId":"b2"}}`)
	c.reply(reqs[s1], `{"outcome":{"outcome":"selected","optionId":"a1"}}`)
	saw := c.agentSaw() + c.agentSaw()
	assert.Contains(t, saw, `"Second?":"b2"`)
	assert.Contains(t, saw, `"First?":"a1"`)
}

func TestE2EInvalidQuestionsGetEveryViolationThroughTheBinary(t *testing.T) {
	t.Parallel()
	c := startClient(t)
	s := c.setup()
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Q?", "A header that is too long", false, "only")}})
	saw := c.agentSaw()
	assert.Contains(t, saw, `-32602`)
	assert.Contains(t, saw, "questions[0].header: String must contain at most 12 character(s)")
	assert.Contains(t, saw, "questions[0].options: must have 2-4 items")
	assert.False(t, strings.Contains(saw, "request_permission"))
}

func TestE2EUsageWithoutAnAgent(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(askbridgeBin).CombinedOutput()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, 2, ee.ExitCode())
	assert.Contains(t, string(out), "Usage:")
}

// deskClient pairs with the desk at base using the code askbridge showed
// on its terminal, as the user would, letting the device approve without a
// passkey (the user's opt-in).
func (c *client) deskClient(base string) *http.Client {
	c.t.Helper()
	re := regexp.MustCompile(`desk pairing code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})`)
	var m []string
	for deadline := time.Now().Add(20 * time.Second); m == nil; time.Sleep(20 * time.Millisecond) {
		require.True(c.t, time.Now().Before(deadline), "no pairing code on askbridge's terminal: %s", c.tty.String())
		m = re.FindStringSubmatch(c.tty.String())
	}
	hc, err := desk.Pair(c.t.Context(), base, m[1], true)
	require.NoError(c.t, err)
	hc.Timeout = 10 * time.Second
	return hc
}
