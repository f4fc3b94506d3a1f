package qwen

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Dialect is the dialect of Qwen Code. It asks with a session/request_permission
// whose toolCall carries the questions (rawInput.questions, or
// _meta.qwenQuestions in some versions) and two options, Submit and
// Cancel, and reads the answers from a top-level `answers` object of the
// response, keyed by question index — a field no client sends. askbridge
// answers that request itself: each question becomes a permission request
// of its own, or one form for a client that renders forms.
type Dialect struct{}

// qwenSubmit is the option of Qwen's request that submits the answers.
const qwenSubmit = "proceed_once"

// Name implements Dialect.
func (*Dialect) Name() string { return "qwen" }

// Hooks implements Dialect.
func (*Dialect) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: acp.ClientMethodSessionRequestPermission}}
}

// Advertise implements Advertiser: Qwen offers its question tool to a
// client whose capabilities' _meta says "qwen.askUserQuestion".
func (*Dialect) Advertise() []dialect.Default {
	return []dialect.Default{{Path: []string{"clientCapabilities", "_meta", "qwen.askUserQuestion"}, Value: json.RawMessage(`true`)}}
}

// Agent implements Targeted: only Qwen Code reads that key.
func (*Dialect) Agent() string { return "qwen" }

// qwenToolCall is where Qwen puts its questions. The SDK's ToolCallUpdate
// would carry them as untyped rawInput and _meta; this names them.
type qwenToolCall struct {
	ToolCallID string `json:"toolCallId"`
	Meta       struct {
		QwenQuestions json.RawMessage `json:"qwenQuestions"`
	} `json:"_meta"`
	RawInput struct {
		Questions json.RawMessage `json:"questions"`
	} `json:"rawInput"`
}

// questions finds the questions: _meta.qwenQuestions, else
// rawInput.questions; nil when there are none.
func (tc qwenToolCall) questions() (raw json.RawMessage, path string) {
	if q := tc.Meta.QwenQuestions; len(q) > 0 && string(q) != "null" {
		return q, "toolCall._meta.qwenQuestions"
	}
	if q := tc.RawInput.Questions; len(q) > 0 && string(q) != "null" {
		return q, "toolCall.rawInput.questions"
	}
	return nil, ""
}

// Claim implements Dialect: a permission request carrying questions.
func (d *Dialect) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p struct {
		SessionID string          `json:"sessionId"`
		ToolCall  json.RawMessage `json:"toolCall"`
		questions []permission.Question
	}
	if err := m.Params(&p); err != nil {
		return nil
	}
	var tc qwenToolCall
	if json.Unmarshal(p.ToolCall, &tc) != nil {
		return nil
	}
	if raw, _ := tc.questions(); len(raw) <= 2 { // none, or an empty list
		return nil
	}
	return &dialect.Claim{
		SessionID:  p.SessionID,
		ToolCallID: tc.ToolCallID,
		Mode:       dialect.AskForm,
		Questions: func(context.Context) ([]permission.Question, error) {
			qs, err := decodeQwen(p.ToolCall)
			if err == nil {
				err = permission.ValidateBridged(qs, h.Limits())
			}
			p.questions = qs
			return qs, err
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			switch o.Status {
			case dialect.Invalid:
				h.Logger().Warn("qwen question rejected", "err", o.Err)
				return nil, dialect.InvalidQuestions(o.Err)
			case dialect.TimedOut:
				// Qwen has no "no answer": each question says so in words.
				answers := map[string]string{}
				for i := range p.questions {
					answers[strconv.Itoa(i)] = permission.NoAnswerInTime
				}
				return qwenResponse{
					RequestPermissionResponse: acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(qwenSubmit)},
					Answers:                   answers,
				}, nil
			case dialect.Answered:
				return qwenResponse{
					RequestPermissionResponse: acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(qwenSubmit)},
					Answers:                   qwenAnswers(o.Result),
				}, nil
			}
			return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeCancelled()}, nil
		},
	}
}

// qwenResponse is the permission response with the `answers` member Qwen
// reads, which the SDK's type has no field for.
type qwenResponse struct {
	acp.RequestPermissionResponse
	Answers map[string]string `json:"answers"`
}

// decodeQwen reads the questions of a Qwen Code permission request's
// toolCall.
func decodeQwen(toolCall []byte) ([]permission.Question, error) {
	var tc qwenToolCall
	if err := json.Unmarshal(toolCall, &tc); err != nil {
		return nil, fmt.Errorf("toolCall: invalid JSON")
	}
	raw, path := tc.questions()
	if raw == nil {
		raw, path = json.RawMessage("null"), "toolCall.rawInput.questions"
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return permission.DecodeQuestions(path, v, "multiSelect")
}

// qwenAnswers are the answers as Qwen Code reads them: by question index,
// multi-select joined with ", ", typed text verbatim. Follow-ups have no
// index in Qwen's set and are left out.
func qwenAnswers(r permission.Result) map[string]string {
	out := map[string]string{}
	for _, a := range r.Answers {
		if a.Index >= 0 {
			out[strconv.Itoa(a.Index)] = a.Answer.Text()
		}
	}
	return out
}
