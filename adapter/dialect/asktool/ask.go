package asktool

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
)

// Ask is askbridge's own dialect, `_askbridge/ask`: params are the
// AskUserQuestion input plus optional sessionId and toolCallId; the result
// is the Claude relay.Agent SDK's canUseTool result, so an agent built on that
// SDK, or any agent, can ask through askbridge. `askbridge ask` sends the
// same method over the ask socket, with format "cli".
//
// It is also the example of a dialect: a type with a name and its hooks,
// and Claim, which says what to ask (Questions) and what the agent gets
// back (Reply). Everything between is the bridge's.
type Ask struct{}

// Name implements Dialect.
func (*Ask) Name() string { return "ask" }

// Hooks implements Dialect.
func (*Ask) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: askwire.Method}}
}

// Claim implements Dialect: every _askbridge/ask is the dialect's.
func (d *Ask) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var env struct {
		Params json.RawMessage `json:"params"`
	}
	var p askwire.Params
	parseErr := json.Unmarshal(m.Raw, &env)
	if parseErr == nil {
		parseErr = json.Unmarshal(env.Params, &p)
	}
	session := h.ActiveSession(p.SessionID)
	return &dialect.Claim{
		SessionID:  session,
		ToolCallID: p.ToolCallID,
		Mode:       dialect.Ask,
		Questions: func(context.Context) ([]permission.Question, error) {
			if parseErr != nil {
				return nil, relay.InvalidParams("askbridge: params: "+parseErr.Error(), nil)
			}
			qs, err := permission.DecodeAskInput(env.Params)
			if err == nil {
				err = permission.Validate(qs, h.Limits())
			}
			if err != nil {
				return nil, dialect.InvalidQuestions(err)
			}
			if session == "" {
				return nil, dialect.ErrNoSession()
			}
			return qs, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			if o.Status == dialect.Invalid {
				return nil, o.Err
			}
			switch p.Format {
			case "cli":
				return cliResult(o)
			case "result":
				if o.Status == dialect.Refused {
					return nil, relay.Internal(o.Message, nil)
				}
				return o.Result, nil
			}
			var echo struct {
				Questions json.RawMessage `json:"questions"`
			}
			json.Unmarshal(env.Params, &echo)
			return newSDKResult(echo.Questions, o), nil
		},
	}
}

// CancelMessage is what an SDK-style asker reads when the user cancelled.
const CancelMessage = "User cancelled the question"

// sdkResult is the Claude relay.Agent SDK's canUseTool result for AskUserQuestion:
// allow with the answers keyed by question text, or deny with interrupt.
type sdkResult struct {
	Behavior     string    `json:"behavior"`
	UpdatedInput *sdkInput `json:"updatedInput,omitempty"`
	Message      string    `json:"message,omitempty"`
	Interrupt    *bool     `json:"interrupt,omitempty"`
}

type sdkInput struct {
	Questions json.RawMessage   `json:"questions"`
	Answers   map[string]string `json:"answers"`
}

func newSDKResult(questions json.RawMessage, o dialect.Outcome) sdkResult {
	switch o.Status {
	case dialect.Refused:
		return sdkResult{Behavior: "deny", Message: o.Message, Interrupt: new(false)}
	case dialect.TimedOut:
		return sdkResult{Behavior: "deny", Message: permission.NoAnswerInTime, Interrupt: new(false)}
	case dialect.Cancelled:
		return sdkResult{Behavior: "deny", Message: CancelMessage, Interrupt: new(true)}
	}
	answers := map[string]string{}
	for _, a := range o.Result.Answers {
		answers[a.Question.Question] = a.Answer.Text()
	}
	if len(questions) == 0 || string(questions) == "null" {
		questions = json.RawMessage("[]")
	}
	return sdkResult{Behavior: "allow", UpdatedInput: &sdkInput{Questions: questions, Answers: answers}}
}

// cliAnswered and cliCancelled are what `askbridge ask` prints.
type cliAnswered struct {
	Answers map[string]string `json:"answers"`
}

type cliCancelled struct {
	Cancelled bool `json:"cancelled"`
}

type cliTimedOut struct {
	TimedOut bool   `json:"timedOut"`
	Message  string `json:"message"`
}

func cliResult(o dialect.Outcome) (any, error) {
	switch o.Status {
	case dialect.Refused:
		return nil, relay.Internal(o.Message, nil)
	case dialect.TimedOut:
		return cliTimedOut{TimedOut: true, Message: permission.NoAnswerInTime}, nil
	case dialect.Cancelled:
		return cliCancelled{Cancelled: true}, nil
	}
	return cliAnswered{Answers: CLIAnswers(o.Result)}, nil
}

// CLIAnswers are the answers as `askbridge ask` prints them: by header, typed text as "Other (custom: text)".
func CLIAnswers(r permission.Result) map[string]string {
	out := map[string]string{}
	for _, a := range r.Answers {
		parts := append([]string(nil), a.Answer.Labels...)
		switch {
		case a.Answer.Other && a.Answer.Custom != "":
			parts = append(parts, "Other (custom: "+a.Answer.Custom+")")
		case a.Answer.Other:
			parts = append(parts, "Other") // the client could not send the typed text
		}
		out[a.Question.Header] = strings.Join(parts, ", ")
	}
	return out
}
