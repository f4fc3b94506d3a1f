//go:build unix

package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect/opencode"
	"github.com/askbridge/askbridge/adapter/dialect/opencode/opencodetest"
	"github.com/askbridge/askbridge/adapter/mcpask"
	"github.com/askbridge/askbridge/permission"
)

// The agents whose answer is no JSON-RPC reply: a model calling askbridge's
// MCP tool (`askbridge mcp`, the server that asks through the ask socket),
// and OpenCode, which takes the answer on its own HTTP server.

func hostedDialects() []matrixDialect {
	return []matrixDialect{
		{name: "mcp-tool", multi: true, followUps: true, socket: true, send: mcpSend, receive: fromCell, decode: mcpHeard},
		{name: "opencode", multi: true, options: openCodeOptions, send: openCodeSend, receive: fromCell, decode: openCodeHeard},
	}
}

func fromCell(t *testing.T, c *cell) json.RawMessage {
	select {
	case b := <-c.got:
		return b
	case <-time.After(10 * time.Second):
		t.Fatal("the agent got no answer")
		return nil
	}
}

// mcpSend has a model call ask_user_question on askbridge's MCP server,
// which asks through the bridge's ask socket; the tool result is the
// agent's answer.
func mcpSend(t *testing.T, c *cell, k kind) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	ct, st := mcp.NewInMemoryTransports()
	_, err := mcpask.New(mcpask.Options{Socket: c.socket}).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "matrix-model"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	c.got = make(chan json.RawMessage, 1)
	go func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: mcpask.ToolName, Arguments: map[string]any{"questions": []permission.Question{k.question()}}})
		if err != nil {
			c.got <- json.RawMessage(strconv.Quote("call failed: " + err.Error()))
			return
		}
		b, _ := json.Marshal(res)
		c.got <- b
	}()
}

// mcpHeard reads the tool result as the model does: one line per question,
// `"Q"="A, B, typed"`, with what was typed marked as typed, and the labels
// apart in structuredContent.
func mcpHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		Structured struct {
			Answers map[string]struct {
				Labels []string `json:"labels"`
				Typed  bool     `json:"typed"`
			} `json:"answers"`
		} `json:"structuredContent"`
		IsError bool `json:"isError"`
	}
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	require.Len(t, r.Content, 1, string(result))
	text := r.Content[0].Text
	switch {
	case text == permission.NoAnswerInTime:
		return heard{state: permission.StateTimeout}
	case strings.HasPrefix(text, "The user cancelled"):
		return heard{state: permission.StateCancelled}
	}
	h := answered()
	for _, line := range strings.Split(text, "\n") {
		q, rest, ok := strings.Cut(line, "=")
		require.True(t, ok, line)
		q, err := strconv.Unquote(q)
		require.NoError(t, err, line)
		items := append([]string(nil), r.Structured.Answers[q].Labels...)
		switch {
		case strings.HasSuffix(rest, " (typed by the user)"):
			typed, err := strconv.Unquote(strings.TrimSuffix(rest, " (typed by the user)"))
			require.NoError(t, err, line)
			items = append(items, typed)
		case strings.HasSuffix(rest, " typed by the user)"):
			_, mark, _ := strings.Cut(rest, " (")
			typed, err := strconv.Unquote(strings.TrimSuffix(mark, " typed by the user)"))
			require.NoError(t, err, line)
			items = append(items, typed)
		case strings.HasSuffix(rest, "("+permission.OtherWithoutText+")"):
			items = append(items, permission.OtherWithoutText)
		}
		h.answers[q] = items
	}
	return h
}

// openCodeOptions points the OpenCode dialect at a fake OpenCode server
// whose question the answer is posted to.
func openCodeOptions(t *testing.T, c *cell, opts *Options) {
	oc := opencodetest.New(t, "pw")
	oc.Ask("call_mx")
	c.got = make(chan json.RawMessage, 1)
	go func() {
		select {
		case p := <-oc.Posts():
			b, _ := json.Marshal(p)
			c.got <- b
		case <-time.After(15 * time.Second):
		}
	}()
	opts.Dialects = withOpenCode(&opencode.Server{BaseURL: oc.URL, Password: "pw"})
}

// openCodeSend is OpenCode's question tool call (multiple, not multiSelect).
func openCodeSend(t *testing.T, c *cell, k kind) {
	q := k.question()
	b, _ := json.Marshal([]map[string]any{{"question": q.Question, "header": q.Header, "options": q.Options, "multiple": q.Kind.Many}})
	c.h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call_update","toolCallId":"call_mx","status":"in_progress","kind":"other","title":"question","locations":[],"rawInput":{"questions":%s}}}}`, b))
}

// openCodeHeard reads what reached OpenCode's server: a reply with a list
// of answers per question (the typed text among them), or a reject.
func openCodeHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var post string
	require.NoError(t, json.Unmarshal(result, &post), string(result))
	_, rest, _ := strings.Cut(post, " ") // the question's id
	verb, body, _ := strings.Cut(rest, " ")
	if verb != "reply" {
		return heard{state: permission.StateCancelled}
	}
	var r struct {
		Answers [][]string `json:"answers"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &r), body)
	require.Len(t, r.Answers, 1)
	if len(r.Answers[0]) == 1 && r.Answers[0][0] == permission.NoAnswerInTime {
		return heard{state: permission.StateTimeout}
	}
	h := answered()
	h.answers[k.question().Question] = r.Answers[0]
	return h
}
