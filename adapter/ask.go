package adapter

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/askbridge/askbridge/permission"
)

// AskMethod is askbridge's extension method for asking the user: params are
// the AskUserQuestion input plus optional sessionId and toolCallId; the
// result is the Claude Agent SDK's canUseTool result, so an agent built on
// that SDK, or any agent, can ask through askbridge.
const AskMethod = "_askbridge/ask"

// askParams are the params of AskMethod, also on the `askbridge ask` socket.
type askParams struct {
	Questions  json.RawMessage `json:"questions"`
	SessionID  string          `json:"sessionId"`
	ToolCallID string          `json:"toolCallId"`
	// Format "cli" asks for `askbridge ask`'s output instead of the SDK
	// result; "result" for the permission.Result itself (`askbridge mcp`).
	Format string `json:"format"`
	// MCPTag names the session whose session/new started `askbridge mcp`.
	MCPTag string `json:"mcpTag,omitempty"`
}

func (b *Bridge) onAsk(m *Message) Verdict {
	m = m.Clone()
	go func() {
		var p askParams
		if err := m.Params(&p); err != nil {
			b.relay.Agent.ReplyError(m.ID, InvalidParams("askbridge: params: "+err.Error(), nil))
			return
		}
		result, rpcErr := b.handleAsk(context.Background(), m.ID, m.Raw, p)
		if rpcErr != nil {
			b.relay.Agent.ReplyError(m.ID, rpcErr)
			return
		}
		b.relay.Agent.Reply(m.ID, result)
	}()
	return Verdict{Take: true}
}

// handleAsk validates and asks; reqID ties the set to the agent's request
// for $/cancel_request (nil on the socket).
func (b *Bridge) handleAsk(ctx context.Context, reqID json.RawMessage, raw json.RawMessage, p askParams) (any, *Error) {
	var params json.RawMessage
	if raw != nil {
		var env struct {
			Params json.RawMessage `json:"params"`
		}
		json.Unmarshal(raw, &env)
		params = env.Params
	} else {
		params, _ = json.Marshal(map[string]json.RawMessage{"questions": p.Questions})
	}
	qs, err := permission.DecodeAskInput(params)
	if err == nil {
		err = permission.Validate(qs, b.opts.Limits)
	}
	if err != nil {
		return nil, invalidQuestions(err)
	}
	session := b.activeSession(p.SessionID)
	if session == "" {
		return nil, Internal("askbridge: no session to ask in yet: the client has not opened one", nil)
	}
	ctx, done := b.begin(ctx, session, reqID)
	defer done()
	res, err := b.askClient(ctx, permission.Request{SessionID: session, ToolCallID: p.ToolCallID, Questions: qs})
	if errors.Is(err, errRoundLimit) {
		if p.Format == "cli" || p.Format == "result" {
			return nil, Internal(b.roundLimitMessage(), nil)
		}
		return map[string]any{"behavior": "deny", "message": b.roundLimitMessage(), "interrupt": false}, nil
	}
	if p.Format == "result" {
		return res, nil
	}
	if p.Format == "cli" {
		if res.Cancelled {
			return map[string]bool{"cancelled": true}, nil
		}
		return map[string]any{"answers": permission.CLIAnswers(res)}, nil
	}
	var echo struct {
		Questions json.RawMessage `json:"questions"`
	}
	json.Unmarshal(params, &echo)
	return permission.SDKResult(echo.Questions, res), nil
}

// invalidQuestions is the invalid-params error listing every violation.
func invalidQuestions(err error) *Error {
	var ve *permission.ValidationError
	if errors.As(err, &ve) {
		var list []string
		for _, v := range ve.Violations {
			list = append(list, v.String())
		}
		return InvalidParams("askbridge: invalid questions: "+err.Error(), map[string]any{"violations": list})
	}
	return InvalidParams("askbridge: invalid questions: "+err.Error(), nil)
}
