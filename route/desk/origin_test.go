package desk

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A desk whose board is told where its sets come from (the hub, an
// askbridge of itself) shows it with each set, and serves the extra
// routes it is given behind its token.
func TestOriginAndRoutes(t *testing.T) {
	board := permission.NewBoard()
	board.Describe(func(o *permission.Origin) { o.Agent, o.ID, o.CWD = "claude", "a1", "/src/api" })
	d, err := Listen("127.0.0.1:0", board, Options{
		Routes: map[string]http.HandlerFunc{"GET /instance": func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`["one"]`)) }},
	})
	require.NoError(t, err)
	defer d.Close()
	board.Open(permission.Request{SessionID: "s", Round: 1, Questions: []permission.Question{{Question: "Q?", Header: "Q", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
	base := d.base()
	get := func(path string, signed bool) (*http.Response, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		if signed {
			sign(t, d, req)
		}
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, body := get("/question", true)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var sets []struct {
		ID       string
		CWD      string
		Instance map[string]any
		WaitedMs *int64
	}
	require.NoError(t, json.Unmarshal([]byte(body), &sets))
	require.Len(t, sets, 1)
	assert.Equal(t, "/src/api", sets[0].CWD)
	assert.Equal(t, "claude", sets[0].Instance["agent"])
	assert.Equal(t, "a1", sets[0].Instance["id"])
	if assert.NotNil(t, sets[0].WaitedMs, "the page shows how long a group has waited") {
		assert.GreaterOrEqual(t, *sets[0].WaitedMs, int64(0))
		assert.Less(t, *sets[0].WaitedMs, int64(time.Minute/time.Millisecond))
	}

	// The history says it too, once the set has ended.
	require.NoError(t, board.Withdraw(sets[0].ID, "rejected", permission.BySelf(permission.SourceDesk)))
	resp, body = get("/api/session/s/history", true)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var hist struct {
		Rounds []struct {
			State    string
			CWD      string
			Instance map[string]any
		}
	}
	require.NoError(t, json.Unmarshal([]byte(body), &hist))
	require.Len(t, hist.Rounds, 1)
	assert.Equal(t, "cancelled", hist.Rounds[0].State, "the wire says the state as before")
	assert.Equal(t, "/src/api", hist.Rounds[0].CWD)
	assert.Equal(t, "claude", hist.Rounds[0].Instance["agent"])
	assert.Equal(t, "a1", hist.Rounds[0].Instance["id"])

	resp, body = get("/instance", true)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, `["one"]`, body)
	resp, _ = get("/instance", false)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}
