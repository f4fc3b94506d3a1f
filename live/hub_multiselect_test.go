//go:build live

package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A multi-select answered at the hub with picks and typed text (issue 39:
// Claude read "Auth, Search, "Auth, Search, SSO""). The hub runs in this
// process with its page's server; askbridge reports to it (--hub), the
// editor shows the question and never answers it, and the answer is given
// through the page's API as a paired browser gives it. What each agent's
// model reads is its tool result as the fake model receives it.

// liveHub is a hub and its page, paired.
type liveHub struct {
	sock string
	base string
	key  string
	mac  string // the request key: what proves a request that changes something (desk.Sign)
	http http.Client
}

func startLiveHub(t *testing.T) *liveHub {
	dir, err := os.MkdirTemp("", "abhub") // short: a socket's path is bounded
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "askbridge", "hub.sock")
	ln, err := hub.Listen(sock)
	require.NoError(t, err)
	t.Setenv(hubkey.Env, hubkey.Format(ln.Key.Public())) // the askbridges, with HOMEs of their own, trust this hub
	board := permission.NewBoard()
	h := hub.New(board, nil)
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { h.Serve(ctx, ln); close(served) }()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	page := desk.New(tcp, board, desk.Options{})
	t.Cleanup(func() { page.Close(); stop(); <-served })
	lh := &liveHub{sock: sock, base: "http://" + tcp.Addr().String() + "/"}
	lh.http.Timeout = 10 * time.Second
	lh.http.Jar, _ = cookiejar.New(nil)
	code, _ := page.Devices().NewCode()
	var begun struct{ Ticket string }
	_, err = lh.call("POST", "pair/begin", map[string]string{"code": code, "name": "live"}, &begun)
	require.NoError(t, err)
	var done struct{ Key, MAC string }
	_, err = lh.call("POST", "pair/finish", map[string]any{"ticket": begun.Ticket, "name": "live", "noPasskeyApprovals": true}, &done)
	require.NoError(t, err)
	lh.key, lh.mac = done.Key, done.MAC
	return lh
}

// call calls the page's API; a status other than 200 is an error with the
// body, and the status is returned either way.
func (h *liveHub) call(method, path string, body, out any) (int, error) {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, h.base+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Askbridge-Key", h.key)
	if h.mac != "" && method != http.MethodGet {
		if err := desk.Sign(req, h.mac); err != nil {
			return 0, err
		}
	}
	resp, err := h.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, got)
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(got, out)
	}
	return resp.StatusCode, nil
}

// answer waits for the one set at the hub and answers it with each of
// tries in turn until one is taken; it returns the statuses.
func (h *liveHub) answer(tries ...[][]string) ([]int, error) {
	for deadline := time.Now().Add(120 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var list []struct {
			ID string `json:"id"`
		}
		if _, err := h.call("GET", "question", nil, &list); err != nil || len(list) != 1 {
			continue
		}
		var codes []int
		for _, a := range tries {
			code, err := h.call("POST", "question/"+list[0].ID+"/reply", map[string]any{"answers": a}, nil)
			codes = append(codes, code)
			if err == nil {
				return codes, nil
			}
		}
		return codes, fmt.Errorf("no answer was taken")
	}
	return nil, fmt.Errorf("no question reached the hub")
}

// features is a multi-select in Claude's input.
const features = `{"questions":[{"question":"Which features do you want?","header":"Features","multiSelect":true,"options":[{"label":"Auth","description":"sign-in"},{"label":"Search","description":"full text"},{"label":"Metrics","description":"counters"}]}]}`

// kimiFeatures is the same in Kimi's input.
const kimiFeatures = `{"questions":[{"question":"Which features do you want?","header":"Features","multi_select":true,"options":[{"label":"Auth","description":"sign-in"},{"label":"Search","description":"full text"},{"label":"Metrics","description":"counters"}]}]}`

func TestHubMultiSelectWithTypedText(t *testing.T) {
	for _, c := range []struct {
		name  string
		agent harness.Agent
		call  string
		tries [][][]string // answers given at the hub, in turn, until one is taken
		codes []int        // the hub's statuses for them
		want  string       // the model's tool result
	}{
		// Claude adds the typed text to the picks.
		{"claude", harness.Claude, features, [][][]string{{{"Auth", "Search", "SSO"}}}, []int{200},
			`The user answered: "Which features do you want?"="Auth, Search, SSO".` + claudeRead},
		// Codex has no multi-select: one pick or the note. Typed text is
		// "None of the above" with the text as the note.
		{"codex", harness.Codex, codexDB, [][][]string{{{"Postgres", "CockroachDB"}}, {{"CockroachDB"}}}, []int{400, 200},
			`{"answers":{"db":{"answers":["None of the above","user_note: CockroachDB"]}}}`},
		// Kimi's form has no free-text field: typed text is refused at
		// the hub (never lost silently), the picks alone are taken.
		{"kimi", harness.Kimi, kimiFeatures, [][][]string{{{"Auth", "Search", "SSO"}}, {{"Auth", "Search"}}}, []int{400, 200},
			`{"answers":{"Which features do you want?":"Auth, Search"}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := startLiveHub(t)
			m := model(t, c.agent.Tool, c.call)
			editor := &stalledEditor{}
			r := harness.Start(t, c.agent, harness.Options{ModelURL: m.URL, Client: editor.client(), Timeout: 3 * time.Minute,
				Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--hub="+h.sock)})
			type result struct {
				codes []int
				err   error
			}
			answered := make(chan result, 1)
			go func() {
				// Answered at the hub once the editor has its copy, so
				// that there is a copy to withdraw.
				select {
				case <-editor.shown:
				case <-time.After(120 * time.Second):
					answered <- result{nil, fmt.Errorf("the editor was never shown the set")}
					return
				}
				codes, err := h.answer(c.tries...)
				answered <- result{codes, err}
			}()
			_, stop, err := r.Turn(harness.NoFeatures, "Ask me about the service.")
			require.NoError(t, err, "stderr:\n%s", r.Stderr())
			assert.Equal(t, "end_turn", stop)
			a := <-answered
			require.NoError(t, a.err)
			assert.Equal(t, c.codes, a.codes, "what the hub took")
			select {
			case <-editor.withdrawn:
			default:
				t.Error("the editor's copy was never withdrawn")
			}
			results := m.ToolResults()
			require.Len(t, results, 1, "stderr:\n%s", r.Stderr())
			t.Logf("the model read: %s", results[0])
			assert.Equal(t, c.want, results[0])
		})
	}
}
