//go:build unix

package harness

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

// OpenCodeServer talks to the HTTP server opencode runs beside its ACP
// stdio (`opencode acp --port P --hostname 127.0.0.1`): the only way to
// answer its question tool.
type OpenCodeServer struct {
	Base     string // http://127.0.0.1:PORT
	Password string // OPENCODE_SERVER_PASSWORD; the user is "opencode"
}

// OpenCodeQuestion is one pending question request (GET /question).
type OpenCodeQuestion struct {
	ID        string          `json:"id"`
	SessionID string          `json:"sessionID"`
	Questions json.RawMessage `json:"questions"`
	Tool      struct {
		MessageID string `json:"messageID"`
		CallID    string `json:"callID"`
	} `json:"tool"`
}

func (s OpenCodeServer) do(ctx context.Context, method, path string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.Base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.Password != "" {
		req.SetBasicAuth("opencode", s.Password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// Get sends a GET and returns the status and body, for probing.
func (s OpenCodeServer) Get(ctx context.Context, path string) (int, []byte, error) {
	return s.do(ctx, "GET", path, nil)
}

// Pending lists the pending questions of directory ("" for all).
func (s OpenCodeServer) Pending(ctx context.Context, directory string) ([]OpenCodeQuestion, error) {
	path := "/question"
	if directory != "" {
		path += "?directory=" + url.QueryEscape(directory)
	}
	code, b, err := s.do(ctx, "GET", path, nil)
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %s", path, code, b)
	}
	var qs []OpenCodeQuestion
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("GET %s: %v in %s", path, err, b)
	}
	return qs, nil
}

// WaitPending polls until a question for callID is pending.
func (s OpenCodeServer) WaitPending(ctx context.Context, directory, callID string) (OpenCodeQuestion, error) {
	for {
		qs, err := s.Pending(ctx, directory)
		if err != nil {
			return OpenCodeQuestion{}, err
		}
		for _, q := range qs {
			if q.Tool.CallID == callID {
				return q, nil
			}
		}
		select {
		case <-ctx.Done():
			return OpenCodeQuestion{}, fmt.Errorf("no pending question for call %s: %w", callID, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Reply answers a question request: one list of labels (or typed text)
// per question, in order. It returns the HTTP status and body.
func (s OpenCodeServer) Reply(ctx context.Context, id string, answers [][]string) (int, []byte, error) {
	return s.do(ctx, "POST", "/question/"+url.PathEscape(id)+"/reply", map[string]any{"answers": answers})
}

// Reject dismisses a question request.
func (s OpenCodeServer) Reject(ctx context.Context, id string) (int, []byte, error) {
	return s.do(ctx, "POST", "/question/"+url.PathEscape(id)+"/reject", nil)
}
