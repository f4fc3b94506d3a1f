package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/askbridge/askbridge/adapter"
	"github.com/sourcegraph/jsonrpc2"
)

// RunAgent serves the scripted agent on r/w until the client goes away.
func RunAgent(ctx context.Context, s *Script, r io.Reader, w io.Writer) error {
	a := &agent{script: s}
	conn := jsonrpc2.NewConn(ctx, adapter.NewLineStream(r, w, nil, nil), jsonrpc2.AsyncHandler(jsonrpc2.HandlerWithError(a.handle)))
	<-conn.DisconnectNotify()
	return nil
}

type agent struct {
	script *Script
}

func (a *agent) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	switch req.Method {
	case "initialize":
		return map[string]any{"protocolVersion": 1, "agentCapabilities": map[string]any{}, "agentInfo": map[string]string{"name": "askbridge-demo", "version": "1"}}, nil
	case "session/new":
		return map[string]string{"sessionId": "demo-session"}, nil
	case "session/prompt":
		var p struct {
			SessionID string `json:"sessionId"`
		}
		json.Unmarshal(*req.Params, &p)
		return a.turn(ctx, conn, p.SessionID)
	case "session/cancel":
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "the demo agent does not do " + req.Method}
}

func (a *agent) say(ctx context.Context, conn *jsonrpc2.Conn, session, text string) {
	conn.Notify(ctx, "session/update", map[string]any{"sessionId": session, "update": map[string]any{
		"sessionUpdate": "agent_message_chunk", "content": map[string]string{"type": "text", "text": text}}})
}

// turn asks every round and quotes the answers it received.
func (a *agent) turn(ctx context.Context, conn *jsonrpc2.Conn, session string) (any, error) {
	a.say(ctx, conn, session, a.script.Intro)
	var lines []string
	for i, round := range a.script.Rounds {
		var input map[string]any
		json.Unmarshal(round, &input)
		var asked struct {
			Questions []struct {
				Question string `json:"question"`
			} `json:"questions"`
		}
		json.Unmarshal(round, &asked)
		input["sessionId"] = session
		input["toolCallId"] = fmt.Sprintf("demo-ask-%d", i+1)
		var res struct {
			Behavior     string `json:"behavior"`
			Message      string `json:"message"`
			UpdatedInput struct {
				Answers map[string]string `json:"answers"`
			} `json:"updatedInput"`
		}
		if err := conn.Call(ctx, adapter.AskMethod, input, &res); err != nil {
			a.say(ctx, conn, session, "\nAsking failed: "+err.Error())
			return map[string]string{"stopReason": "end_turn"}, nil
		}
		if res.Behavior != "allow" {
			a.say(ctx, conn, session, "\nYou cancelled the questions ("+res.Message+"), so I'll stop here.")
			return map[string]string{"stopReason": "end_turn"}, nil
		}
		for _, q := range asked.Questions {
			lines = append(lines, fmt.Sprintf("  %s → %s", q.Question, res.UpdatedInput.Answers[q.Question]))
		}
	}
	a.say(ctx, conn, session, "\n"+a.script.Outro+"\n"+strings.Join(lines, "\n"))
	return map[string]string{"stopReason": "end_turn"}, nil
}
