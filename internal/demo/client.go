package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/internal/prompt"
	"github.com/sourcegraph/jsonrpc2"
)

// Client is the demo's terminal ACP client: it prints what the agent says
// and answers permission requests with a prompter.
type Client struct {
	Prompter prompt.Prompter
	Out      io.Writer // where the conversation is printed
	mu       sync.Mutex
}

// Run connects to an agent (askbridge in front of the demo agent) on r/w,
// sends prompt as the user, and returns when the turn ends.
func (c *Client) Run(ctx context.Context, prompt string, r io.Reader, w io.WriteCloser) error {
	// A synchronous handler keeps the agent's messages in order; a
	// permission request waits for the user, and nothing else can come then.
	conn := jsonrpc2.NewConn(ctx, adapter.NewLineStream(r, w, w, nil), jsonrpc2.HandlerWithError(c.handle))
	defer conn.Close()
	var init json.RawMessage
	if err := conn.Call(ctx, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{},
		"clientInfo": map[string]string{"name": "askbridge-demo-client", "version": "1"}}, &init); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	if err := conn.Call(ctx, "session/new", map[string]any{"cwd": "/", "mcpServers": []any{}}, &sess); err != nil {
		return fmt.Errorf("session/new: %w", err)
	}
	c.print("you › %s\n\n", prompt)
	var res struct {
		StopReason string `json:"stopReason"`
	}
	if err := conn.Call(ctx, "session/prompt", map[string]any{"sessionId": sess.SessionID,
		"prompt": []any{map[string]string{"type": "text", "text": prompt}}}, &res); err != nil {
		return fmt.Errorf("session/prompt: %w", err)
	}
	c.print("\n\n(turn ended: %s)\n", res.StopReason)
	return nil
}

func (c *Client) print(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.Out, format, args...)
}

func (c *Client) handle(ctx context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	switch req.Method {
	case "session/update":
		var p struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				Title         string `json:"title"`
				Status        string `json:"status"`
				Content       json.RawMessage
			} `json:"update"`
		}
		json.Unmarshal(*req.Params, &p)
		switch p.Update.SessionUpdate {
		case "agent_message_chunk":
			var text struct{ Text string }
			json.Unmarshal(p.Update.Content, &text)
			c.print("agent › %s\n", text.Text)
		}
		return nil, nil
	case "session/request_permission":
		return prompt.AnswerRaw(ctx, c.Prompter, *req.Params)
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "the demo client does not do " + req.Method}
}
