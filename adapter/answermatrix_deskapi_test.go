//go:build unix

package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"testing"
	"time"

	"github.com/askbridge/askbridge/route/desk"
	"github.com/stretchr/testify/require"
)

// deskAPI is the board's answer API as a page (paired, with its session's
// key and cookie) or the terminal inbox (over its socket, no key) calls it.
type deskAPI struct {
	base string
	key  string
	mac  string // the request key pairing gave: a request that changes something is proved with it (desk.Sign)
	http http.Client
}

// unixAPI is the API over a Unix socket, as `askbridge inbox` calls it.
func unixAPI(path string) *deskAPI {
	var d net.Dialer
	return &deskAPI{base: "http://localhost/", http: http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) { return d.DialContext(ctx, "unix", path) },
	}}}
}

// pair trades a pairing code for a session, as a browser without a
// passkey does.
func (a *deskAPI) pair(t *testing.T, code string) {
	a.http.Timeout = 5 * time.Second
	a.http.Jar, _ = cookiejar.New(nil)
	var begun struct{ Ticket string }
	a.call(t, "POST", "pair/begin", map[string]string{"code": code, "name": "matrix"}, &begun)
	var done struct{ Key, MAC string }
	a.call(t, "POST", "pair/finish", map[string]any{"ticket": begun.Ticket, "name": "matrix", "noPasskeyApprovals": true}, &done)
	a.key, a.mac = done.Key, done.MAC
}

func (a *deskAPI) do(t *testing.T, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, a.base+path, r)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if a.key != "" {
		req.Header.Set("X-Askbridge-Key", a.key)
		if method != http.MethodGet {
			require.NoError(t, desk.Sign(req, a.mac))
		}
	}
	resp, err := a.http.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, b
}

// call does a request that must succeed, decoding its answer into out.
func (a *deskAPI) call(t *testing.T, method, path string, body, out any) {
	t.Helper()
	code, b := a.do(t, method, path, body)
	require.Equal(t, http.StatusOK, code, "%s %s: %s", method, path, b)
	if out != nil {
		require.NoError(t, json.Unmarshal(b, out), string(b))
	}
}

// try does a request and returns its status.
func (a *deskAPI) try(t *testing.T, method, path string, body any) int {
	t.Helper()
	code, _ := a.do(t, method, path, body)
	return code
}

// pendingListed is a set as GET /question lists it.
type pendingListed struct {
	ID   string `json:"id"`
	Step int    `json:"step"`
}

// waitSet waits for the one set the cell asks to be pending there.
func (a *deskAPI) waitSet(t *testing.T) string {
	t.Helper()
	var id string
	require.Eventually(t, func() bool {
		var sets []pendingListed
		a.call(t, "GET", "question", nil, &sets)
		if len(sets) == 1 {
			id = sets[0].ID
		}
		return id != ""
	}, 10*time.Second, 10*time.Millisecond, "the set is pending at %s", a.base)
	return id
}

// waitStep waits for set id to be at step.
func (a *deskAPI) waitStep(t *testing.T, id string, step int) {
	t.Helper()
	require.Eventually(t, func() bool {
		var sets []pendingListed
		a.call(t, "GET", "question", nil, &sets)
		for _, s := range sets {
			if s.ID == id && s.Step == step {
				return true
			}
		}
		return false
	}, 10*time.Second, 10*time.Millisecond, "set %s at step %d", id, step)
}
