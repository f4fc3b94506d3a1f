//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"time"

	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/desk/softkey"
)

// page is a browser paired with the hub's page with a passkey, as the
// page's own script talks to it: the session cookie and the key header on
// every request, the page's Origin, and the passkey for approvals.
type page struct {
	base    string // http://localhost:PORT
	http    *http.Client
	key     string // the session's key (desk.KeyHeader)
	mac     string // the request key a request that changes something is proved with (desk.Sign)
	passkey *softkey.Key
}

// pairPage pairs a new browser at base with code, making its passkey.
func pairPage(ctx context.Context, base, code string) (*page, error) {
	jar, _ := cookiejar.New(nil)
	p := &page{base: strings.TrimSuffix(base, "/"), http: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
	var err error
	if p.passkey, err = softkey.New(p.base); err != nil {
		return nil, err
	}
	var begun struct {
		Ticket    string
		PublicKey struct{ PublicKey struct{ Challenge string } }
	}
	if err := p.post(ctx, "/pair/begin", map[string]string{"code": code, "name": "decisionbench"}, &begun); err != nil {
		return nil, err
	}
	if begun.PublicKey.PublicKey.Challenge == "" {
		return nil, fmt.Errorf("pairing: the hub offered no passkey at %s", p.base)
	}
	cred, err := p.passkey.Create(begun.PublicKey.PublicKey.Challenge, softkey.UP|softkey.UV)
	if err != nil {
		return nil, err
	}
	var done struct{ Key, MAC string }
	if err := p.post(ctx, "/pair/finish", map[string]any{"ticket": begun.Ticket, "name": "decisionbench", "credential": cred}, &done); err != nil {
		return nil, err
	}
	p.key, p.mac = done.Key, done.MAC
	return p, nil
}

// do sends a request as the page's script does and decodes a 200's JSON
// into out; any other status is an error with the hub's words.
func (p *page) do(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Origin", p.base)
	req.Header.Set("Content-Type", "application/json")
	if p.key != "" {
		req.Header.Set(desk.KeyHeader, p.key)
		if method != http.MethodGet {
			if err := desk.Sign(req, p.mac); err != nil {
				return err
			}
		}
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(data))
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(data, out)
}

func (p *page) post(ctx context.Context, path string, body, out any) error {
	return p.do(ctx, http.MethodPost, path, body, out)
}

// set is what the bench reads of a pending set on the page.
type set struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"` // "approval" or "question"
	Questions []struct {
		Options []struct {
			Label string `json:"label"`
		} `json:"options"`
	} `json:"questions"`
}

// next polls the page's list every 2 ms until a set not in done waits.
func (p *page) next(ctx context.Context, done map[string]bool) (set, error) {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		var list []set
		if err := p.do(ctx, http.MethodGet, "/question", nil, &list); err != nil {
			return set{}, err
		}
		for _, s := range list {
			if !done[s.ID] && len(s.Questions) > 0 && len(s.Questions[0].Options) > 0 {
				return s, nil
			}
		}
	}
	return set{}, fmt.Errorf("no new set on the hub's page within 20s")
}

// decide answers s with its first option as the page does: for an
// approval, the passkey's challenge for exactly that answer (POST
// …/presence), the assertion signed, and the reply with it; for a
// question, the reply alone.
func (p *page) decide(ctx context.Context, s set) error {
	answers := [][]string{{s.Questions[0].Options[0].Label}}
	body := map[string]any{"answers": answers, "step": 0}
	if s.Kind == "approval" {
		var opts struct {
			PublicKey struct {
				Challenge string `json:"challenge"`
			} `json:"publicKey"`
		}
		if err := p.post(ctx, "/question/"+s.ID+"/presence", body, &opts); err != nil {
			return err
		}
		assertion, err := p.passkey.Get(opts.PublicKey.Challenge, softkey.UP|softkey.UV) // user verified, as after a finger
		if err != nil {
			return err
		}
		body["assertion"] = assertion
	}
	return p.post(ctx, "/question/"+s.ID+"/reply", body, nil)
}
