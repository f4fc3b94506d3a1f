package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askbridge/askbridge/conformance"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A session recorded with --record becomes a fixture (record-fixture),
// which fails until replay -update fills its want sections, and passes
// after.
func TestRecordingBecomesAPassingFixture(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec := filepath.Join(dir, "session.jsonl")
	fixture := filepath.Join(dir, "case.txtar")

	c := startClient(t, "--record", rec)
	s := c.setup()
	turn := c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{
		question("Which database?", "Database", false, "Postgres", "SQLite"),
		question("Which languages?", "Languages", true, "Go", "Rust", "C"),
	}})
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"SQLite"}}`)
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","C"]}}}`)
	assert.Contains(t, c.agentSaw(), `"answers":{"Which database?":"SQLite","Which languages?":"Go, C"}`)
	c.response(turn)
	c.stop()

	code, _, errOut := runBinary(t, "", "record-fixture", rec, fixture)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "askbridge replay -update "+fixture)

	code, out, _ := runBinary(t, "", "replay", fixture)
	assert.Equal(t, 1, code, "a fresh fixture wants nothing, and askbridge says something")
	assert.Contains(t, out, "FAIL "+fixture)
	assert.Contains(t, out, "0 passed, 1 failed")

	code, out, errOut = runBinary(t, "", "replay", "-update", fixture)
	require.Equal(t, 0, code, out+errOut)
	assert.Regexp(t, `UPDATED .*case.txtar: want-client \d+ lines, want-agent \d+ lines`, out)
	f, err := conformance.Load(fixture)
	require.NoError(t, err)
	assert.Contains(t, string(joinLines(f.WantAgent)), `"answers":{"Which database?":"SQLite","Which languages?":"Go, C"}`, "the agent got the recorded answers")
	assert.Contains(t, string(joinLines(f.WantClient)), `"method":"session/request_permission"`)

	code, out, _ = runBinary(t, "", "replay", fixture)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "PASS "+fixture+"\n1 passed, 0 failed\n")
}

func TestReplayUpdateReportsAFixtureThatCannotPlay(t *testing.T) {
	t.Parallel()
	bad := filepath.Join(t.TempDir(), "bad.txtar")
	require.NoError(t, os.WriteFile(bad, []byte("-- client --\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}\n"), 0o644))
	code, out, _ := runBinary(t, "", "replay", "-update", bad)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL "+bad+"\n"+bad+": no agent section")
	b, err := os.ReadFile(bad)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "want-client", "a fixture that cannot play is left as it was")
}

func joinLines(lines [][]byte) []byte {
	var out []byte
	for _, l := range lines {
		out = append(append(out, l...), '\n')
	}
	return out
}

// stop closes the client's side and waits for askbridge to exit, so that
// what it records is on disk.
func (c *client) stop() {
	c.t.Helper()
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.t.Fatal("askbridge did not exit after its stdin closed")
	}
}
