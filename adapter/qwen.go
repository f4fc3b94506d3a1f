package adapter

import (
	"context"
	"encoding/json"

	"github.com/askbridge/askbridge/permission"
)

// Qwen Code asks with a session/request_permission whose toolCall carries the
// questions (rawInput.questions, or _meta.qwenQuestions in some versions)
// and two options, Submit and Cancel. It reads the answers from a top-level
// `answers` object of the response, keyed by question index — a field no
// client sends. askbridge answers that request itself: each question becomes
// a permission request of its own, or one form for a client that renders
// forms.

// qwenSubmit is the option of Qwen's request that submits the answers.
const qwenSubmit = "proceed_once"

func (b *Bridge) onPermissionRequest(m *Message) Verdict {
	var p struct {
		SessionID string          `json:"sessionId"`
		ToolCall  json.RawMessage `json:"toolCall"`
	}
	if err := m.Params(&p); err != nil || !hasQwenQuestions(p.ToolCall) {
		return Pass
	}
	m = m.Clone()
	go b.answerQwen(m, p.SessionID, p.ToolCall)
	return Verdict{Take: true}
}

func hasQwenQuestions(toolCall json.RawMessage) bool {
	raw, _ := permission.QwenQuestions(toolCall)
	return len(raw) > 2 // more than an empty list
}

func (b *Bridge) answerQwen(m *Message, session string, toolCall json.RawMessage) {
	qs, err := permission.DecodeQwen(toolCall)
	if err == nil {
		err = permission.ValidateBridged(qs, b.opts.Limits)
	}
	if err != nil {
		b.logger.Warn("qwen question rejected", "err", err)
		b.relay.Agent.ReplyError(m.ID, invalidQuestions(err))
		return
	}
	var tc struct {
		ToolCallID string `json:"toolCallId"`
	}
	json.Unmarshal(toolCall, &tc)
	ctx, done := b.begin(context.Background(), session, m.ID)
	defer done()
	req := permission.Request{SessionID: session, ToolCallID: tc.ToolCallID, Questions: qs}
	var res permission.Result
	if b.ClientRendersForms() {
		res, err = b.askForm(ctx, req)
	} else {
		res, err = b.askClient(ctx, req)
	}
	if err != nil || res.Cancelled {
		b.relay.Agent.Reply(m.ID, map[string]any{"outcome": map[string]string{"outcome": "cancelled"}})
		return
	}
	b.relay.Agent.Reply(m.ID, map[string]any{
		"outcome": map[string]string{"outcome": "selected", "optionId": qwenSubmit},
		"answers": permission.QwenAnswers(res),
	})
}
