package desk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
)

// Pair pairs a program with the desk at base ("http://localhost:PORT/")
// as a browser without a passkey does, with a code the user gave it, and
// returns an HTTP client that sends the session with every request.
// approve is the user's opt-in to approvals without a passkey.
func Pair(ctx context.Context, base, code string, approve bool) (*http.Client, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	base = strings.TrimSuffix(base, "/")
	post := func(path string, body, out any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, "POST", base+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("pairing: %s: %s", resp.Status, bytes.TrimSpace(data))
		}
		return json.Unmarshal(data, out)
	}
	var begun struct{ Ticket string }
	if err := post("/pair/begin", map[string]string{"code": code, "name": "a program"}, &begun); err != nil {
		return nil, err
	}
	var done struct{ Key string }
	if err := post("/pair/finish", map[string]any{"ticket": begun.Ticket, "name": "a program", "noPasskeyApprovals": approve}, &done); err != nil {
		return nil, err
	}
	c.Transport = keyed{key: done.Key}
	return c, nil
}

// keyed adds the session's key to every request.
type keyed struct{ key string }

func (k keyed) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(KeyHeader, k.key)
	return http.DefaultTransport.RoundTrip(r)
}
