//go:build live

package live

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Claude Code (claude-agent-acp, default mode) asks before running Bash.
// Through askbridge with --approvals mirror --desk, that approval is on the
// desk too: answered there, the editor's copy is withdrawn, and the command
// runs (allowed) or does not (rejected).

// bashCall writes a marker file, so a test sees whether it ran.
const bashCall = `{"command":"echo approved-at-the-desk > ran.txt && cat ran.txt","description":"Write a marker file"}`

// deskApproval waits for an approval on the desk at addr and answers it
// with its first option of kind; it returns the desk's listing of it.
func deskApproval(t *testing.T, addr, kind string) (json.RawMessage, error) {
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		body, err := deskCall(addr, "GET", "/question", nil)
		if err != nil {
			continue
		}
		var list []struct {
			ID       string `json:"id"`
			Kind     string `json:"kind"`
			Approval struct {
				Options []struct {
					Name string `json:"name"`
					Kind string `json:"kind"`
				} `json:"options"`
			} `json:"approval"`
		}
		var raw []json.RawMessage
		if json.Unmarshal(body, &list) != nil || len(list) == 0 || list[0].Kind != "approval" {
			continue
		}
		json.Unmarshal(body, &raw)
		for _, o := range list[0].Approval.Options {
			if o.Kind == kind {
				_, err := deskCall(addr, "POST", "/question/"+list[0].ID+"/reply", map[string]any{"answers": [][]string{{o.Name}}})
				return raw[0], err
			}
		}
		t.Errorf("no %s option in %s", kind, body)
		return raw[0], nil
	}
	body, err := deskCall(addr, "GET", "/question", nil)
	return nil, fmt.Errorf("no approval reached the desk; it lists %s (%v)", body, err)
}

func TestClaudeApprovalMirroredAnsweredAtTheDesk(t *testing.T) {
	for _, c := range []struct {
		name, pick string
		runs       bool
	}{
		{"allowed", "allow_once", true},
		{"rejected", "reject_once", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := model(t, "Bash", bashCall)
			addr := freeAddr(t)
			perms := &stalledEditor{}
			r := harness.Start(t, harness.Claude, harness.Options{ModelURL: m.URL,
				Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--approvals", "mirror", "--desk", addr),
				TTY:  true, Client: perms.client()})
			deskScreens.Store(addr, r.Terminal)
			// Without a defaultMode Claude Code starts in auto mode, which
			// runs this command without asking.
			require.NoError(t, os.MkdirAll(filepath.Join(r.Home, ".claude"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(r.Home, ".claude", "settings.json"), []byte(`{"permissions":{"defaultMode":"default"}}`), 0o600))
			type listing struct {
				p   json.RawMessage
				err error
			}
			desk := make(chan listing, 1)
			go func() {
				p, err := deskApproval(t, addr, c.pick)
				desk <- listing{p, err}
			}()
			_, stop, err := r.Turn(harness.NoFeatures, "Write the marker file.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)
			d := <-desk
			perms.mu.Lock()
			t.Logf("the editor got %d permission requests: %s; the model got %d requests, offered %v, results %q", len(perms.perms), perms.perms, len(m.Requests()), m.Offered(), m.ToolResults())
			perms.mu.Unlock()
			require.NoError(t, d.err)
			t.Logf("the desk listed: %s", d.p)
			var listed struct {
				Approval struct {
					ToolCall struct {
						RawInput struct {
							Command string `json:"command"`
						} `json:"rawInput"`
					} `json:"toolCall"`
				} `json:"approval"`
			}
			require.NoError(t, json.Unmarshal(d.p, &listed))
			assert.Equal(t, "echo approved-at-the-desk > ran.txt && cat ran.txt", listed.Approval.ToolCall.RawInput.Command, "the desk shows the command")

			perms.mu.Lock()
			require.NotEmpty(t, perms.perms, "the editor got the request too")
			perms.mu.Unlock()
			select {
			case <-perms.withdrawn:
			default:
				t.Error("the editor's request was never withdrawn")
			}
			_, statErr := os.Stat(filepath.Join(r.Home, "ran.txt"))
			results := m.ToolResults()
			require.Len(t, results, 1)
			t.Logf("the model read: %s", results[0])
			if c.runs {
				assert.NoError(t, statErr, "the command ran")
				assert.Contains(t, results[0], "approved-at-the-desk")
			} else {
				assert.True(t, os.IsNotExist(statErr), "the command did not run")
				assert.False(t, strings.Contains(results[0], "approved-at-the-desk\n"), results[0])
			}
		})
	}
}

// acpx in its non-interactive mode cannot answer a permission request: alone
// with Claude, the command never runs. Through askbridge with --approvals
// desk the request never reaches acpx; it is answered at the desk and the
// command runs.
func TestAcpxApprovalAnsweredAtTheDesk(t *testing.T) {
	for _, c := range []struct {
		name    string
		through bool
	}{
		{"alone", false},
		{"askbridge --approvals desk", true},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			m := model(t, "Bash", bashCall)
			addr := freeAddr(t)
			var home string
			claude := harness.Claude
			setup := claude.Setup
			claude.Setup = func(h, url string) ([]string, error) {
				home = h
				env, err := setup(h, url)
				if err == nil {
					// Not auto mode, which would run the command unasked.
					os.MkdirAll(filepath.Join(h, ".claude"), 0o755)
					err = os.WriteFile(filepath.Join(h, ".claude", "settings.json"), []byte(`{"permissions":{"defaultMode":"default"}}`), 0o600)
				}
				return env, err
			}
			var wrap []string
			desk := make(chan error, 1)
			if c.through {
				wrap = harness.Askbridge(askbridge(t), "--approvals", "desk", "--desk", addr)
				go func() {
					_, err := deskApproval(t, addr, "allow_once")
					desk <- err
				}()
			}
			agent := strings.Join(append(wrap, claude.Argv(harness.LiveDir())...), " ")
			// askbridge, started by acpx, shows its desk's code on the
			// terminal acpx runs on.
			term := &harness.Screen{}
			deskScreens.Store(addr, term.String)
			out := harness.ExecOn(t, claude, m.URL, []string{filepath.Join(harness.LiveDir(), "node_modules/.bin/acpx"),
				"--agent", agent, "--format", "json", "--timeout", "90", "exec", "Write the marker file."}, 0, term)
			_, statErr := os.Stat(filepath.Join(home, "ran.txt"))
			if !c.through {
				t.Logf("acpx alone: err %v; stderr %s", out.Err, tail(out.Stderr, 600))
				assert.True(t, os.IsNotExist(statErr), "without an answer the command does not run")
				return
			}
			require.NoError(t, <-desk)
			require.NoError(t, out.Err, "acpx failed:\n%s", tail(out.Stderr, 4000))
			assert.Contains(t, out.Stdout, `"stopReason":"end_turn"`)
			assert.NoError(t, statErr, "the command ran")
			require.Len(t, m.ToolResults(), 1)
			assert.Contains(t, m.ToolResults()[0], "approved-at-the-desk")
			assert.NotContains(t, out.Stdout, "session/request_permission", "acpx never saw the request")
		})
	}
}

// Gemini CLI asks before writing a file; mirrored, the edit is on the desk
// and allowed there, and the file is written.
func TestGeminiEditApprovalMirroredAnsweredAtTheDesk(t *testing.T) {
	m := model(t, "write_file", `{"file_path":"notes.txt","content":"approved-at-the-desk\n"}`)
	addr := freeAddr(t)
	perms := &stalledEditor{}
	r := harness.Start(t, harness.Gemini, harness.Options{ModelURL: m.URL,
		Wrap: harness.Askbridge(askbridge(t), "--log-level=debug", "--approvals", "mirror", "--desk", addr),
		TTY:  true, Client: perms.client()})
	deskScreens.Store(addr, r.Terminal)
	desk := make(chan error, 1)
	go func() {
		p, err := deskApproval(t, addr, "allow_once")
		t.Logf("the desk listed: %s", p)
		desk <- err
	}()
	_, stop, err := r.Turn(harness.NoFeatures, "Write the notes.")
	require.NoError(t, err)
	assert.Equal(t, "end_turn", stop)
	require.NoError(t, <-desk)
	b, err := os.ReadFile(filepath.Join(r.Home, "notes.txt"))
	require.NoError(t, err, "the file was written; the model read %q", m.ToolResults())
	assert.Equal(t, "approved-at-the-desk\n", string(b))
	select {
	case <-perms.withdrawn:
	default:
		t.Error("the editor's request was never withdrawn")
	}
}
