package mcphttptest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Host is one MCP session with askbridge's HTTP listing at URL.
type Host struct {
	URL, Token, Session string
}

// Open initializes a session as a host does: initialize, then
// notifications/initialized.
func Open(ctx context.Context, url, token string) (*Host, error) {
	h := &Host{URL: url, Token: token}
	resp, err := h.Post(ctx, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"0"}}}`)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	if h.Session = resp.Header.Get("Mcp-Session-Id"); h.Session == "" {
		return nil, fmt.Errorf("initialize: no Mcp-Session-Id (%s)", resp.Status)
	}
	resp, err = h.Post(ctx, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return h, nil
}

// Post posts one JSON-RPC message in the host's session (none before
// Open has one), for as long as ctx lasts: ending ctx drops the stream.
func (h *Host) Post(ctx context.Context, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", h.URL, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+h.Token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.Session != "" {
		req.Header.Set("Mcp-Session-Id", h.Session)
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	}
	return http.DefaultClient.Do(req)
}

// CallAndDrop posts a tools/call of the ask tool with arguments, and
// returns a function that drops its stream (the connection closes, no
// notifications/cancelled) and waits until the post is over.
func (h *Host) CallAndDrop(ctx context.Context, arguments string) (drop func()) {
	callCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := h.Post(callCtx, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask_user_question","arguments":`+arguments+`}}`); err == nil {
			resp.Body.Close()
		}
	}()
	return func() { cancel(); <-done }
}
