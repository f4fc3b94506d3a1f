package desk

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
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
	var done struct{ Key, MAC string }
	if err := post("/pair/finish", map[string]any{"ticket": begun.Ticket, "name": "a program", "noPasskeyApprovals": approve}, &done); err != nil {
		return nil, err
	}
	c.Transport = keyed{key: done.Key, mac: done.MAC}
	return c, nil
}

// keyed proves every request as the page does: a read with the session's
// key, anything else with a MAC bound to it (Sign).
type keyed struct{ key, mac string }

func (k keyed) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(KeyHeader, k.key)
	if !readOnly(r.Method) {
		if err := Sign(r, k.mac); err != nil {
			return nil, err
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Sign proves req, a request to a desk or hub, with a MAC bound to it
// under mac (the request key pairing gave, base64url) over a fresh ticket
// from req's server (GET /api/prove); the session's key is taken off it.
// The body is read through req.GetBody, which http.NewRequest sets for
// the usual readers.
func Sign(req *http.Request, mac string) error {
	key, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil || len(key) == 0 {
		return fmt.Errorf("signing %s %s: no request key (pair again)", req.Method, req.URL.Path)
	}
	var body []byte
	if req.GetBody != nil {
		rc, err := req.GetBody()
		if err != nil {
			return err
		}
		body, err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	ticket, err := fetchTicket(req)
	if err != nil {
		return fmt.Errorf("signing %s %s: %w", req.Method, req.URL.Path, err)
	}
	req.Header.Del(KeyHeader)
	req.Header.Set(TicketHeader, ticket)
	req.Header.Set(MACHeader, RequestMAC(key, ticket, req.Method, req.URL.RequestURI(), body))
	return nil
}

// fetchTicket asks req's server for a ticket, as the page does with its
// proof (prove.go); the proof itself a program need not check.
func fetchTicket(req *http.Request) (string, error) {
	nonce := make([]byte, 32)
	rand.Read(nonce)
	u := *req.URL
	u.Path, u.RawPath, u.RawQuery = "/api/prove", "", "nonce="+base64.RawURLEncoding.EncodeToString(nonce)
	get, err := http.NewRequestWithContext(req.Context(), http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	get.Host = req.Host
	resp, err := http.DefaultTransport.RoundTrip(get)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct{ Ticket string }
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&out); err != nil || out.Ticket == "" {
		return "", fmt.Errorf("no ticket from %s (%s)", u.Host, resp.Status)
	}
	return out.Ticket, nil
}
