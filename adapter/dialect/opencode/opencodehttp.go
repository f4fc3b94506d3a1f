package opencode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// The client of the question routes of the server `opencode acp` runs: the
// OpenCode dialect's way to answer, kept apart from its ACP side.

// find waits for the server to list the question of tool call callID.
func (oc *Server) find(ctx context.Context, dir, callID string) (string, error) {
	limit := oc.FindTimeout
	if limit == 0 {
		limit = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	var lastErr error
	for {
		var list []struct {
			ID   string `json:"id"`
			Tool struct {
				CallID string `json:"callID"`
			} `json:"tool"`
		}
		body, err := oc.do(ctx, http.MethodGet, "/question", dir, nil)
		if err == nil {
			err = json.Unmarshal(body, &list)
		}
		if err == nil {
			for _, q := range list {
				if q.Tool.CallID == callID {
					return q.ID, nil
				}
			}
			lastErr = fmt.Errorf("it does not list a question for tool call %s", callID)
		} else if ctx.Err() == nil || lastErr == nil {
			// A request the deadline cut short says less than the
			// answer before it (a 401, say): keep that one.
			lastErr = err
		}
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("after %s: %w", limit, lastErr)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// post answers ("reply") or dismisses ("reject") question id.
func (oc *Server) post(ctx context.Context, dir, id, verb string, body any) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, err := oc.do(ctx, http.MethodPost, "/question/"+url.PathEscape(id)+"/"+verb, dir, body)
	return err
}

func (oc *Server) do(ctx context.Context, method, path, dir string, body any) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	u := oc.BaseURL + path + "?directory=" + url.QueryEscape(dir)
	req, err := http.NewRequestWithContext(ctx, method, u, rd)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth("opencode", oc.Password)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(b))
	}
	return b, nil
}
