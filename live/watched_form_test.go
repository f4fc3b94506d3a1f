//go:build live

package live

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A client that renders forms gets Claude's and Codex's forms untouched
// through askbridge, and the desk lists them too (issue: every question
// watched). Here nobody answers in the editor: the question is answered at
// the desk, the editor's form is withdrawn with $/cancel_request, and the
// model reads the desk's answer.

// stalledEditor is a client that shows each form and permission request
// and never answers one until askbridge withdraws it.
type stalledEditor struct {
	mu        sync.Mutex
	forms     []json.RawMessage
	perms     []json.RawMessage
	withdrawn chan struct{}
	once      sync.Once
	// shown is closed once the editor has the set (a form or a permission
	// request): an answer given elsewhere before that withdraws nothing,
	// for nothing was sent.
	shown     chan struct{}
	shownOnce sync.Once
}

func (s *stalledEditor) client() harness.Client {
	s.withdrawn, s.shown = make(chan struct{}), make(chan struct{})
	stall := func(list *[]json.RawMessage, params json.RawMessage) {
		s.mu.Lock()
		*list = append(*list, params)
		s.mu.Unlock()
		s.shownOnce.Do(func() { close(s.shown) })
		select {
		case <-s.withdrawn:
		case <-time.After(90 * time.Second):
		}
	}
	return harness.Client{
		Elicit: func(params json.RawMessage) (any, error) {
			stall(&s.forms, params)
			return nil, &harness.RPCError{Code: -32800, Message: "Request cancelled"}
		},
		RequestPermission: func(params json.RawMessage) (any, error) {
			stall(&s.perms, params)
			return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
		},
		Notify: func(method string, _ json.RawMessage) {
			if method == "$/cancel_request" {
				s.once.Do(func() { close(s.withdrawn) })
			}
		},
	}
}

// deskAnswer waits for one question set on the desk at addr and answers it
// with answers; it returns what the desk listed.
func deskAnswer(t *testing.T, addr string, answers [][]string) (listed []byte, err error) {
	call := func(method, path string, body any) ([]byte, error) { return deskCall(addr, method, path, body) }
	for deadline := time.Now().Add(120 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		body, err := call("GET", "/question", nil)
		if err != nil {
			continue // not listening yet
		}
		var list []struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(body, &list) != nil || len(list) == 0 {
			continue
		}
		_, err = call("POST", "/question/"+list[0].ID+"/reply", map[string]any{"answers": answers})
		return body, err
	}
	return nil, fmt.Errorf("no question reached the desk")
}

// deskCall calls the desk's API at addr, paired (deskClient).
func deskCall(addr, method, path string, body any) ([]byte, error) {
	c, err := deskClient(addr)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, "http://"+addr+path, bytes.NewReader(b))
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	out.ReadFrom(resp.Body)
	if resp.StatusCode != 200 {
		return nil, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, out.String())
	}
	return out.Bytes(), nil
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

func TestWatchedFormAnsweredAtTheDesk(t *testing.T) {
	for _, c := range []struct {
		name  string
		agent harness.Agent
		call  string
		want  string
	}{
		{"claude", harness.Claude, dbQuestion, `"Which database should the service use?"="Postgres"`},
		{"codex", harness.Codex, codexDB, `{"answers":{"db":{"answers":["Postgres"]}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := model(t, c.agent.Tool, c.call)
			addr := freeAddr(t)
			flags := []string{"--log-level=debug", "--desk", addr}
			if dir := os.Getenv("ASKBRIDGE_LIVE_FIXTURES"); dir != "" {
				require.NoError(t, os.MkdirAll(dir, 0o755))
				flags = append(flags, "--record="+filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".jsonl"))
			}
			forms := &stalledEditor{}
			r := harness.Start(t, c.agent, harness.Options{ModelURL: m.URL, Wrap: harness.Askbridge(askbridge(t), flags...),
				TTY: true, Client: forms.client()})
			deskScreens.Store(addr, r.Terminal)
			type deskResult struct {
				listed []byte
				err    error
			}
			desk := make(chan deskResult, 1)
			go func() {
				l, err := deskAnswer(t, addr, [][]string{{"Postgres"}})
				desk <- deskResult{l, err}
			}()
			_, stop, err := r.Turn(harness.FormElicitation, "Ask me about the service.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)
			d := <-desk
			require.NoError(t, d.err)
			assert.Contains(t, string(d.listed), "Which database")

			forms.mu.Lock()
			require.Len(t, forms.forms, 1, "the editor got the form")
			forms.mu.Unlock()
			select {
			case <-forms.withdrawn:
			default:
				t.Error("the editor's form was never withdrawn")
			}
			results := m.ToolResults()
			require.Len(t, results, 1)
			t.Logf("the model read: %s", results[0])
			assert.Contains(t, results[0], c.want)
		})
	}
}
