//go:build unix

package main

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hub's history numbers a session's sets as they were asked (Round 1,
// Round 2, ...), whichever way the askbridge asks them: through the
// editor's permission requests, or at the hub only (--questions desk,
// whose sets were all round 0). A set answered on the hub's page is
// recorded as answered at the hub (it said "desk").
func TestE2EHubHistoryNumbersRoundsAsAsked(t *testing.T) {
	for _, mode := range [][]string{nil, {"--questions", "desk"}} {
		t.Run(modeName(mode), func(t *testing.T) {
			dir, err := os.MkdirTemp("", "abrounds")
			require.NoError(t, err)
			t.Cleanup(func() { os.RemoveAll(dir) })
			sock := filepath.Join(dir, "hub.sock")
			t.Setenv("ASKBRIDGE_HUB", sock)
			h := startHubProc(t, sock)
			if mode != nil {
				mode = append(mode, "--hub", sock)
			}
			c := startClient(t, mode...)
			s := c.hubSetup(filepath.Join(dir, "api"))
			for i, q := range []string{"First?", "Second?", "Third?"} {
				c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question(q, "Q", false, "yes", "no")}})
				set := h.waitSets(1, 5*time.Second)[0]
				h.do("POST", "/question/"+set.ID+"/reply", `{"answers":[["yes"]]}`, nil)
				assert.Contains(t, c.agentSaw(), `"`+q+`":"yes"`, "round %d", i+1)
				h.waitSets(0, 5*time.Second)
			}
			var sessions []struct{ ID string }
			h.do("GET", "/api/session", "", &sessions)
			require.Len(t, sessions, 1)
			var hist struct {
				Rounds []struct {
					Round  int
					Source string
				}
			}
			h.do("GET", "/api/session/"+url.PathEscape(sessions[0].ID)+"/history", "", &hist)
			require.Len(t, hist.Rounds, 3)
			for i, r := range hist.Rounds {
				assert.Equal(t, i+1, r.Round, "the round numbers as asked")
				assert.Equal(t, "hub", r.Source, "answered at the hub's page, and recorded so")
			}
		})
	}
}

func modeName(flags []string) string {
	if len(flags) == 0 {
		return "editor"
	}
	return flags[1]
}
