package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/conformance"
)

// A session whose questions were answered at the desk (a step, then its
// follow-up with typed text), rejected at the desk, and answered in the
// editor, recorded with --record, becomes a fixture whose desk section
// the replay gives back: it passes. With ASKBRIDGE_RECORD_DIR set the
// fixture is also written there (conformance/testdata/desk-answered.txtar
// was made so).
func TestDeskAnsweredRecordingReplays(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rec, logFile := filepath.Join(dir, "session.jsonl"), filepath.Join(dir, "askbridge.log")
	fixture := filepath.Join(dir, "desk-answered.txtar")
	c := startClient(t, "--record", rec, "--desk", "127.0.0.1:0", "--log-file", logFile)
	desk := deskBase(t, logFile)
	pairDesk(t, c, desk)
	s := c.setup()

	db := question("Which database?", "Database", false, "Postgres", "SQLite")
	db["followUps"] = map[string]any{"Postgres": []any{question("Which Postgres version?", "Version", false, "16", "17")}}
	turn := c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{db, question("Which languages?", "Languages", true, "Go", "Rust", "C")}})
	c.permissionRequest() // shown in the editor, answered at the desk
	id := deskPending(t, desk, 0)
	deskPost(t, desk+"question/"+id+"/reply", `{"answers":[["Postgres"],["C","Go"]],"step":0}`)
	deskPending(t, desk, 1)
	deskPost(t, desk+"question/"+id+"/reply", `{"answers":[["18 beta"]],"step":1}`)
	answered := `"answers":{"Which Postgres version?":"18 beta","Which database?":"Postgres","Which languages?":"Go, C"}`
	assert.Contains(t, c.agentSaw(), answered)
	c.response(turn)

	turn = c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which cache?", "Cache", false, "Redis", "None")}})
	c.permissionRequest()
	deskPost(t, desk+"question/"+deskPending(t, desk, 0)+"/reject", "")
	rejected := c.agentSaw()
	c.response(turn)

	turn = c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Which queue?", "Queue", false, "NATS", "Kafka")}})
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"selected","optionId":"Kafka"}}`)
	assert.Contains(t, c.agentSaw(), `"answers":{"Which queue?":"Kafka"}`)
	c.response(turn)
	c.stop()

	code, _, errOut := runBinary(t, "", "record-fixture", rec, fixture)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "6 client and 11 agent lines, 3 desk, no want lines yet")
	f, err := conformance.Load(fixture)
	require.NoError(t, err)
	require.Len(t, f.Desk, 3, "two steps answered and one set rejected at the desk")

	code, out, errOut := runBinary(t, "", "replay", "-update", fixture)
	require.Equal(t, 0, code, out+errOut)
	f, err = conformance.Load(fixture)
	require.NoError(t, err)
	wantAgent := string(joinLines(f.WantAgent))
	assert.Contains(t, wantAgent, answered, "the replayed desk gave the agent the recorded answers")
	assert.Contains(t, wantAgent, `"answers":{"Which queue?":"Kafka"}`)
	var said struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(rejected), &said))
	assert.Contains(t, wantAgent, string(said.Result), "and the reject")

	code, out, _ = runBinary(t, "", "replay", fixture)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "PASS "+fixture+"\n1 passed, 0 failed\n")
	if dir := os.Getenv("ASKBRIDGE_RECORD_DIR"); dir != "" {
		b, err := os.ReadFile(fixture)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "desk-answered.txtar"), b, 0o644))
	}
}

// deskBase is the desk's address, from where askbridge wrote it.
func deskBase(t *testing.T, logFile string) string {
	url := regexp.MustCompile(`desk at (http://localhost:\d+/)`)
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "the desk URL never reached the log file")
		b, _ := os.ReadFile(logFile)
		if m := url.FindStringSubmatch(string(b)); m != nil {
			return m[1]
		}
	}
}

// deskPending waits for the one pending set to be at step, and returns
// its id.
func deskPending(t *testing.T, base string, step int) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "no question reached step %d at the desk", step)
		var sets []struct {
			ID   string
			Step int
		}
		require.NoError(t, json.Unmarshal(deskDo(t, "GET", base+"question", ""), &sets))
		if len(sets) == 1 && sets[0].Step == step {
			return sets[0].ID
		}
	}
}

func deskPost(t *testing.T, url, body string) { deskDo(t, "POST", url, body) }

func deskDo(t *testing.T, method, url, body string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader([]byte(body)))
	require.NoError(t, err)
	hc, ok := deskClients.Load(t)
	require.True(t, ok, "pair with the desk first (pairDesk)")
	resp, err := hc.(*http.Client).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s %s: %s", method, url, b)
	return b
}

// deskClients are the tests' paired clients of their desks.
var deskClients sync.Map // *testing.T -> *http.Client

// pairDesk pairs t's requests (deskDo) with c's desk at base.
func pairDesk(t *testing.T, c *client, base string) {
	deskClients.Store(t, c.deskClient(base))
	t.Cleanup(func() { deskClients.Delete(t) })
}
