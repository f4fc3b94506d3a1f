//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/route/desk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hubProc is a running `askbridge hub`.
type hubProc struct {
	t    *testing.T
	cmd  *exec.Cmd
	sock string
	url  string       // http://localhost:PORT
	page *http.Client // paired with the page (pair)
}

func startHubProc(t *testing.T, sock string, args ...string) *hubProc {
	cmd := exec.Command(askbridgeBin, append([]string{"hub", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB="+sock, "GORACE=atexit_sleep_ms=0",
		"XDG_STATE_HOME="+filepath.Join(filepath.Dir(sock), "state")) // the history beside the socket
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	h := &hubProc{t: t, cmd: cmd, sock: sock}
	t.Cleanup(h.kill)
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "askbridge: hub at "); ok {
				if _, local, public := strings.Cut(u, " (on this machine at "); public {
					u = strings.TrimSuffix(local, ")") // --public-url's first
				}
				found <- u
			}
		}
	}()
	select {
	case u := <-found:
		require.Regexp(t, `^http://localhost:\d+/$`, u, "localhost, the name a passkey takes, and no secret")
		h.url = strings.TrimSuffix(u, "/")
	case <-time.After(15 * time.Second):
		t.Fatal("the hub did not say where it is")
	}
	return h
}

// pair pairs the test with the hub's page as the user does: a code from
// `askbridge hub pair`, traded at the page (approve: the opt-in to approve
// without a passkey).
func (h *hubProc) pair(approve bool) *http.Client {
	h.t.Helper()
	cmd := exec.Command(askbridgeBin, "hub", "pair")
	cmd.Env = append(os.Environ(), "ASKBRIDGE_HUB="+h.sock)
	out, err := cmd.CombinedOutput()
	require.NoError(h.t, err, string(out))
	code := regexp.MustCompile(`Pairing code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})`).FindStringSubmatch(string(out))
	require.NotNil(h.t, code, string(out))
	c, err := desk.Pair(h.t.Context(), h.url, code[1], approve)
	require.NoError(h.t, err)
	c.Timeout = 5 * time.Second
	return c
}

func (h *hubProc) kill() {
	if h.cmd.ProcessState != nil {
		return
	}
	h.cmd.Process.Signal(syscall.SIGCONT)
	h.cmd.Process.Kill()
	h.cmd.Wait()
}

func (h *hubProc) do(method, path, body string, out any) {
	h.t.Helper()
	req, err := http.NewRequest(method, h.url+path, strings.NewReader(body))
	require.NoError(h.t, err)
	if h.page == nil {
		h.page = h.pair(true)
	}
	resp, err := h.page.Do(req)
	require.NoError(h.t, err)
	defer resp.Body.Close()
	require.Equal(h.t, http.StatusOK, resp.StatusCode, "%s %s", method, path)
	if out != nil {
		require.NoError(h.t, json.NewDecoder(resp.Body).Decode(out))
	}
}

type hubSet struct {
	ID        string
	CWD       string
	Questions []struct{ Question string }
	Claim     *struct{ Name string } // the device answering it (claims)
	Instance  struct {
		ID           string
		Agent        string
		AgentVersion string
		Client       string
		CWD          string
		PID          int
	}
}

// waitSets polls GET /question until it lists n sets, for at most within.
func (h *hubProc) waitSets(n int, within time.Duration) []hubSet {
	h.t.Helper()
	var sets []hubSet
	deadline := time.Now().Add(within)
	for {
		sets = nil
		h.do("GET", "/question", "", &sets)
		if len(sets) == n {
			return sets
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the hub lists %d sets, want %d: %+v", len(sets), n, sets)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hubSetup starts a session in dir, from a client that names itself.
func (c *client) hubSetup(dir string) string {
	c.response(c.request("initialize", map[string]any{"protocolVersion": 1, "clientInfo": map[string]any{"name": "zed", "title": "Zed", "version": "1"}}))
	return c.response(c.request("session/new", map[string]any{"cwd": dir, "mcpServers": []any{}}))["result"].(map[string]any)["sessionId"].(string)
}

// Two askbridges in two folders report to one hub: both sets are there,
// named by folder; one answered at the hub reaches its agent alone and
// withdraws its editor's request; a hub killed and started again gets the
// set still pending back; a stopped hub delays no question.
func TestE2EHubAnswersTheRightAgent(t *testing.T) {
	dir, err := os.MkdirTemp("", "abhub")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	h := startHubProc(t, sock)

	dirA, dirB := filepath.Join(dir, "projA"), filepath.Join(dir, "projB")
	require.NoError(t, os.Mkdir(dirA, 0o755))
	require.NoError(t, os.Mkdir(dirB, 0o755))
	t.Chdir(dirA)
	a := startClient(t)
	t.Chdir(dirB)
	b := startClient(t)
	// Each session in a folder of its own, below the askbridge's.
	sa, sb := a.hubSetup(filepath.Join(dirA, "api")), b.hubSetup(filepath.Join(dirB, "web"))
	a.prompt(sa, "_askbridge/ask", map[string]any{"questions": []any{question("Deploy A?", "Deploy", false, "yes", "no")}})
	b.prompt(sb, "_askbridge/ask", map[string]any{"questions": []any{question("Deploy B?", "Deploy", false, "yes", "no")}})
	reqA, reqB := a.permissionRequest(), b.permissionRequest()

	byCWD := map[string]hubSet{}
	for _, s := range h.waitSets(2, 5*time.Second) {
		byCWD[s.Instance.CWD] = s
		assert.Equal(t, filepath.Dir(s.CWD), s.Instance.CWD, "the session's folder, and the askbridge's")
		assert.Equal(t, "scripted-agent", s.Instance.Agent, "initialize's agentInfo")
		assert.Equal(t, "1.0.0", s.Instance.AgentVersion)
		assert.Equal(t, "Zed", s.Instance.Client, "initialize's clientInfo")
		assert.NotZero(t, s.Instance.PID)
	}
	require.Contains(t, byCWD, dirA)
	require.Contains(t, byCWD, dirB)
	assert.Equal(t, "Deploy A?", byCWD[dirA].Questions[0].Question)
	assert.Equal(t, "Deploy B?", byCWD[dirB].Questions[0].Question)
	var instances []map[string]any
	h.do("GET", "/instance", "", &instances)
	assert.Len(t, instances, 2)

	h.do("POST", "/question/"+byCWD[dirB].ID+"/reply", `{"answers":[["no"]]}`, nil)
	withdrawn := b.next(func(m map[string]any) bool { return m["method"] == "$/cancel_request" })
	assert.Equal(t, reqB["id"], withdrawn["params"].(map[string]any)["requestId"], "B's editor request is withdrawn")
	assert.Contains(t, b.agentSaw(), `"Deploy B?":"no"`)
	left := h.waitSets(1, 5*time.Second)
	assert.Equal(t, filepath.Join(dirA, "api"), left[0].CWD, "A's set still waits")

	// Killed and started again, the hub gets A's pending set back.
	require.NoError(t, h.cmd.Process.Kill())
	h.cmd.Wait()
	start := time.Now()
	h = startHubProc(t, sock)
	back := h.waitSets(1, 5*time.Second)
	assert.Equal(t, filepath.Join(dirA, "api"), back[0].CWD)
	assert.Equal(t, "scripted-agent", back[0].Instance.Agent, "named again after the restart")
	assert.Less(t, time.Since(start), 3*time.Second, "askbridges come back within about 2 s")
	// B's set, answered before the kill, is in the restarted hub's history.
	assert.True(t, h.answeredInHistory("Deploy B?", "no"), "the history outlives the hub")

	// A stopped hub delays no question.
	require.NoError(t, h.cmd.Process.Signal(syscall.SIGSTOP))
	time.Sleep(100 * time.Millisecond)
	asked := time.Now()
	b.prompt(sb, "_askbridge/ask", map[string]any{"questions": []any{question("Again?", "Again", false, "yes", "no")}})
	req := b.permissionRequest()
	assert.Less(t, time.Since(asked), time.Second, "the question reaches the editor at once")
	b.reply(req, `{"outcome":{"outcome":"selected","optionId":"yes"}}`)
	assert.Contains(t, b.agentSaw(), `"Again?":"yes"`)
	a.reply(reqA, `{"outcome":{"outcome":"selected","optionId":"yes"}}`)
	assert.Contains(t, a.agentSaw(), `"Deploy A?":"yes"`)
	require.NoError(t, h.cmd.Process.Signal(syscall.SIGCONT))
	h.waitSets(0, 5*time.Second)
}

// answeredInHistory says whether some session's history at the hub has a
// round answered with answer to question.
func (h *hubProc) answeredInHistory(question, answer string) bool {
	var sessions []struct{ ID string }
	h.do("GET", "/api/session", "", &sessions)
	for _, s := range sessions {
		var hist struct {
			Rounds []struct {
				State   string
				Answers map[string]string
			}
		}
		h.do("GET", "/api/session/"+url.PathEscape(s.ID)+"/history", "", &hist)
		for _, r := range hist.Rounds {
			if r.State == "answered" && r.Answers[question] == answer {
				return true
			}
		}
	}
	return false
}
