package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/internal/askwire"
)

// RunAgent serves the scripted agent on r/w until the client goes away or
// ctx ends.
func RunAgent(ctx context.Context, s *Script, r io.Reader, w io.Writer) error {
	a := &agent{script: s, ready: make(chan struct{})}
	a.conn = acp.NewAgentSideConnection(a, w, r)
	close(a.ready)
	select {
	case <-a.conn.Done():
	case <-ctx.Done():
	}
	return nil
}

// agent is the demo's ACP agent: each prompt turn says the script's intro,
// asks every round through askbridge's _askbridge/ask, and quotes the
// answers back.
type agent struct {
	script *Script
	conn   *acp.AgentSideConnection
	// ready is closed once conn is set: the SDK reads requests before
	// NewAgentSideConnection returns, so a turn waits for it.
	ready chan struct{}
}

var _ acp.Agent = (*agent)(nil)

// askParams are the params of askwire.Method: a round's AskUserQuestion
// input, and the session and tool call it belongs to.
type askParams struct {
	Questions  json.RawMessage `json:"questions"`
	SessionID  acp.SessionId   `json:"sessionId"`
	ToolCallID acp.ToolCallId  `json:"toolCallId"`
}

// askResult is what askwire.Method returns: the Claude Agent SDK's
// canUseTool result, allow with the answers keyed by question text, or deny
// with a message.
type askResult struct {
	Behavior     string `json:"behavior"`
	Message      string `json:"message"`
	UpdatedInput struct {
		Answers map[string]string `json:"answers"`
	} `json:"updatedInput"`
}

// Initialize implements acp.Agent.
func (a *agent) Initialize(context.Context, acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentInfo:       &acp.Implementation{Name: "askbridge-demo", Version: "1"},
	}, nil
}

// NewSession implements acp.Agent: the demo has one session.
func (a *agent) NewSession(context.Context, acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	return acp.NewSessionResponse{SessionId: "demo-session"}, nil
}

// Cancel implements acp.Agent. The connection has already cancelled the
// turn's context, which ends the question being asked.
func (a *agent) Cancel(context.Context, acp.CancelNotification) error { return nil }

// Prompt implements acp.Agent: one scripted turn.
func (a *agent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	<-a.ready
	a.say(ctx, p.SessionId, a.script.Intro)
	var lines []string
	for i, round := range a.script.Rounds {
		questions, texts, err := questionsOf(round)
		if err != nil {
			return acp.PromptResponse{}, fmt.Errorf("script rounds[%d]: %w", i, err)
		}
		params := askParams{Questions: questions, SessionID: p.SessionId, ToolCallID: acp.ToolCallId(fmt.Sprintf("demo-ask-%d", i+1))}
		res, err := a.ask(ctx, params)
		switch {
		case ctx.Err() != nil:
			return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
		case err != nil:
			a.say(ctx, p.SessionId, "\nAsking failed: "+err.Error())
			return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
		case res.Behavior != "allow":
			a.say(ctx, p.SessionId, "\nYou cancelled the questions ("+res.Message+"), so I'll stop here.")
			return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
		}
		for _, q := range texts {
			lines = append(lines, fmt.Sprintf("  %s → %s", q, res.UpdatedInput.Answers[q]))
		}
	}
	a.say(ctx, p.SessionId, "\n"+a.script.Outro+"\n"+strings.Join(lines, "\n"))
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// questionsOf reads a script round: its questions as askbridge takes them,
// and their texts, which key the answers.
func questionsOf(round json.RawMessage) (json.RawMessage, []string, error) {
	var input struct {
		Questions json.RawMessage `json:"questions"`
	}
	if err := json.Unmarshal(round, &input); err != nil {
		return nil, nil, err
	}
	var qs []struct {
		Question string `json:"question"`
	}
	if err := json.Unmarshal(input.Questions, &qs); err != nil {
		return nil, nil, err
	}
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Question
	}
	return input.Questions, texts, nil
}

// ask sends one round to askbridge and waits for the user's answers.
func (a *agent) ask(ctx context.Context, params askParams) (askResult, error) {
	var res askResult
	raw, err := a.conn.CallExtension(ctx, askwire.Method, params)
	if err == nil {
		err = json.Unmarshal(raw, &res)
	}
	return res, err
}

// say streams one message to the client.
func (a *agent) say(ctx context.Context, session acp.SessionId, text string) {
	a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: session, Update: acp.UpdateAgentMessageText(text)})
}

// The demo neither authenticates nor keeps sessions, modes or settings:
// the rest of acp.Agent is method-not-found.

// Authenticate implements acp.Agent.
func (a *agent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, acp.NewMethodNotFound(acp.AgentMethodAuthenticate)
}

// ListSessions implements acp.Agent.
func (a *agent) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionList)
}

// ResumeSession implements acp.Agent.
func (a *agent) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

// CloseSession implements acp.Agent.
func (a *agent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionClose)
}

// SetSessionMode implements acp.Agent.
func (a *agent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetMode)
}

// SetSessionConfigOption implements acp.Agent.
func (a *agent) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}
