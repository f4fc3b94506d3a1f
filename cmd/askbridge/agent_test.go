package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"

	acp "github.com/coder/acp-go-sdk"
)

// scriptedAgent is a minimal ACP agent, run as askbridge's child by the
// end-to-end tests. On session/prompt it does what the prompt text says: a
// JSON object {"method": M, "params": P} makes it call extension method M
// with P (sessionId filled in) and say the result's JSON, or the error as
// {"error":…}; method "shell" runs P.argv and says how it went. Then the
// turn ends.
type scriptedAgent struct {
	conn     *acp.AgentSideConnection
	ready    chan struct{} // closed once conn is set
	sessions atomic.Int64
}

var _ acp.Agent = (*scriptedAgent)(nil)

// runScriptedAgent serves the agent on stdio until askbridge goes away.
func runScriptedAgent() {
	slog.SetDefault(slog.New(slog.DiscardHandler)) // the SDK's "connection closed"
	a := &scriptedAgent{ready: make(chan struct{})}
	a.conn = acp.NewAgentSideConnection(a, agentOut(), os.Stdin)
	close(a.ready)
	<-a.conn.Done()
}

// Initialize shows the test what askbridge made of the client's
// capabilities.
func (a *scriptedAgent) Initialize(_ context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	return acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentInfo:       &acp.Implementation{Name: "scripted-agent", Version: "1.0.0"},
		Meta:            map[string]any{"sawClientCapabilities": p.ClientCapabilities},
	}, nil
}

func (a *scriptedAgent) NewSession(context.Context, acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	return acp.NewSessionResponse{SessionId: acp.SessionId(fmt.Sprintf("sess_%d", a.sessions.Add(1)))}, nil
}

func (a *scriptedAgent) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	<-a.ready
	// The turn goes on after session/cancel: the tests check what
	// askbridge answers the pending question then.
	ctx = context.WithoutCancel(ctx)
	var ask struct {
		Method string         `json:"method"`
		Params map[string]any `json:"params"`
	}
	if len(p.Prompt) == 0 || p.Prompt[0].Text == nil || json.Unmarshal([]byte(p.Prompt[0].Text.Text), &ask) != nil {
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
	}
	var said string
	if ask.Method == "shell" {
		said = shell(ask.Params["argv"])
	} else if ask.Method == "session/request_permission" {
		said = a.requestPermission(ctx, p.SessionId, ask.Params)
	} else {
		if ask.Params == nil {
			ask.Params = map[string]any{}
		}
		ask.Params["sessionId"] = p.SessionId
		result, err := a.conn.CallExtension(ctx, ask.Method, ask.Params)
		if err != nil {
			var e any = err.Error()
			if re, ok := err.(*acp.RequestError); ok {
				e = re // code, message and data, as askbridge sent them
			}
			result, _ = json.Marshal(map[string]any{"error": e})
		}
		said = string(result)
	}
	a.conn.SessionUpdate(ctx, acp.SessionNotification{SessionId: p.SessionId, Update: acp.UpdateAgentMessageText(said)})
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// shell runs a command as an agent's shell tool would, with the
// environment askbridge gave the agent, and reports its output.
func shell(argv any) string {
	var args []string
	list, _ := argv.([]any)
	for _, a := range list {
		s, _ := a.(string)
		args = append(args, s)
	}
	if len(args) == 0 {
		return "exit=-1 stdout= stderr=no argv"
	}
	cmd := exec.Command(args[0], args[1:]...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return fmt.Sprintf("exit=%d stdout=%s stderr=%s", code, out, stderr.String())
}

// The tests open sessions and prompt, nothing else.

func (a *scriptedAgent) Cancel(context.Context, acp.CancelNotification) error { return nil }

func (a *scriptedAgent) Authenticate(context.Context, acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	return acp.AuthenticateResponse{}, acp.NewMethodNotFound(acp.AgentMethodAuthenticate)
}

func (a *scriptedAgent) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionList)
}

func (a *scriptedAgent) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

func (a *scriptedAgent) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionClose)
}

func (a *scriptedAgent) SetSessionMode(context.Context, acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	return acp.SetSessionModeResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetMode)
}

func (a *scriptedAgent) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}
