package hub

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"encoding/json"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
)

// A burst of 200 sets, each with a secret question, decided half at the
// hub (by a named device) and half at the askbridge's editor with a typed
// secret: the decisions log holds exactly 200 lines, one per set, each
// with its agent, folder, route and waiting time, and no secret.
func TestABurstOf200SetsGives200DecisionsAndNoSecret(t *testing.T) {
	const sets = 200
	const secret = "s3cr3t-do-not-log"
	logPath := filepath.Join(logFolder(t), "hub-decisions.jsonl")
	path := socket(t)
	h, hubBoard, _ := startHub(t, path)
	l, err := decisions.Open(logPath, 0)
	require.NoError(t, err)
	h.Record(l)
	board, _ := report(t, path, "/src/burst")

	q := permission.Question{Question: "Token?", Header: "Token", Kind: permission.Secret, Options: []permission.Option{{Label: "a"}, {Label: "b"}}}
	tickets := make([]*permission.Ticket, sets)
	var wg sync.WaitGroup
	for i := range sets {
		wg.Go(func() {
			tickets[i] = board.Open(permission.Request{SessionID: "s", Round: 1, Questions: []permission.Question{q}})
		})
	}
	wg.Wait()
	require.Eventually(t, func() bool { return len(hubBoard.List()) == sets }, 20*time.Second, 20*time.Millisecond)
	for i, p := range hubBoard.List() {
		if i%2 == 0 {
			_, err := hubBoard.ProgressBy(p.ID, 0, []permission.Answer{{Other: true, Custom: secret}}, permission.By{Device: "d1", Name: "Pixel 8", Route: permission.RoutePage, Proof: permission.ProofDevice})
			require.NoError(t, err)
		}
	}
	for _, tk := range tickets {
		board.Settle(tk.ID, permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Other: true, Custom: secret}, Path: "questions[0]"}}}, permission.ByEditor())
	}
	var recs []decisions.Record
	require.Eventually(t, func() bool {
		recs, err = decisions.Read(logPath)
		return err == nil && len(recs) >= sets
	}, 30*time.Second, 50*time.Millisecond, "200 decisions logged")
	raw, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Equal(t, sets, bytes.Count(raw, []byte("\n")), "one line per set")
	assert.NotContains(t, string(raw), secret)
	seen := map[string]bool{}
	devices := 0
	for _, r := range recs {
		assert.False(t, seen[r.Set], "set %s logged twice", r.Set)
		seen[r.Set] = true
		assert.Equal(t, "scripted", r.Agent)
		assert.Equal(t, "/src/burst", r.CWD)
		assert.NotEmpty(t, r.Route)
		assert.GreaterOrEqual(t, r.WaitedMs, int64(0))
		if r.Device == "Pixel 8" {
			devices++
			assert.Equal(t, permission.SourceDesk, r.Route)
		}
	}
	assert.Positive(t, devices, "the hub's answers name their device")

	// The page's history reads them, newest first.
	rec := httptest.NewRecorder()
	h.ServeDecisions(rec, httptest.NewRequest("GET", "/api/decisions?limit=5", nil))
	var page []decisions.Record
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &page))
	require.Len(t, page, 5)
	assert.Equal(t, recs[len(recs)-1].Set, page[0].Set)
}
