package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/route/prompt"
)

// Client is the demo's terminal ACP client: it prints what the agent says
// and answers permission requests with a prompter.
type Client struct {
	Prompter prompt.Prompter
	Out      io.Writer // where the conversation is printed
	// CWD is the session's folder, which the desk's and the hub's cards
	// show: the folder the demo runs in when empty (it said "/").
	CWD string

	// term is held while something is written to Out or the user is asked:
	// the SDK answers requests on goroutines of their own, and the agent's
	// messages must not run into a question on the screen.
	term sync.Mutex

	mu    sync.Mutex
	shown map[acp.ToolCallId]chan struct{} // closed once the tool call was seen
}

var _ acp.Client = (*Client)(nil)

// toolCallWait bounds how long a permission request waits for the tool
// call it is about, should the agent not have shown it.
const toolCallWait = 500 * time.Millisecond

// Run connects to an agent (askbridge in front of the demo agent) on r/w,
// sends text as the user, and returns when the turn ends.
func (c *Client) Run(ctx context.Context, text string, r io.Reader, w io.Writer) error {
	conn := acp.NewClientSideConnection(c, w, r)
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{
		ProtocolVersion: acp.ProtocolVersionNumber,
		ClientInfo:      &acp.Implementation{Name: "askbridge-demo-client", Version: "1"},
	}); err != nil {
		return callError(ctx, "initialize", err)
	}
	sess, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: c.folder(), McpServers: []acp.McpServer{}})
	if err != nil {
		return callError(ctx, "session/new", err)
	}
	c.print("you › %s\n\n", text)
	res, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
	if err != nil {
		return callError(ctx, "session/prompt", err)
	}
	c.print("\n\n(turn ended: %s)\n", res.StopReason)
	return nil
}

// folder is the session's folder: CWD, else the working directory (ACP
// wants an absolute path; "/" only when the system cannot say).
func (c *Client) folder() string {
	if c.CWD != "" {
		return c.CWD
	}
	if wd, err := os.Getwd(); err == nil && filepath.IsAbs(wd) {
		return wd
	}
	return "/"
}

// callError names the call that failed. When ctx ended, that is the reason,
// not the SDK's -32800 that stands for it.
func callError(ctx context.Context, method string, err error) error {
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return fmt.Errorf("%s: %w", method, err)
}

func (c *Client) print(format string, args ...any) {
	c.term.Lock()
	defer c.term.Unlock()
	fmt.Fprintf(c.Out, format, args...)
}

// SessionUpdate implements acp.Client: the agent's messages are printed;
// tool calls are noted, not printed, as the prompter shows their questions.
func (c *Client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	u := n.Update
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil {
			c.print("agent › %s\n", t.Text)
		}
	case u.ToolCall != nil:
		c.sawToolCall(u.ToolCall.ToolCallId)
	case u.ToolCallUpdate != nil:
		c.sawToolCall(u.ToolCallUpdate.ToolCallId)
	}
	return nil
}

// sawToolCall marks a tool call as shown.
func (c *Client) sawToolCall(id acp.ToolCallId) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.toolCallLocked(id)
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// toolCallShown is closed once the tool call was shown.
func (c *Client) toolCallShown(id acp.ToolCallId) <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.toolCallLocked(id)
}

func (c *Client) toolCallLocked(id acp.ToolCallId) chan struct{} {
	if c.shown == nil {
		c.shown = map[acp.ToolCallId]chan struct{}{}
	}
	ch, ok := c.shown[id]
	if !ok {
		ch = make(chan struct{})
		c.shown[id] = ch
	}
	return ch
}

// RequestPermission implements acp.Client: the prompter asks the user.
//
// The SDK hands notifications to SessionUpdate in order but answers
// requests at once, so a request could overtake the agent's message before
// it. Askbridge shows a question's tool call before asking about it, so
// waiting for that tool call keeps the screen in the order things were sent.
func (c *Client) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	wait := time.NewTimer(toolCallWait)
	defer wait.Stop()
	select {
	case <-c.toolCallShown(p.ToolCall.ToolCallId):
	case <-wait.C:
	case <-ctx.Done():
		return acp.RequestPermissionResponse{}, context.Cause(ctx)
	}
	params, err := json.Marshal(p)
	if err != nil {
		return acp.RequestPermissionResponse{}, err
	}
	c.term.Lock()
	answer, err := prompt.Answer(ctx, c.Prompter, params)
	c.term.Unlock()
	if err != nil {
		return acp.RequestPermissionResponse{}, err
	}
	var res acp.RequestPermissionResponse
	if err := json.Unmarshal(answer, &res); err != nil {
		return acp.RequestPermissionResponse{}, fmt.Errorf("the prompter's answer: %w", err)
	}
	return res, nil
}

// The demo client has no file system or terminals to offer, and says so
// in initialize: an agent asking for them gets method-not-found.

// ReadTextFile implements acp.Client.
func (c *Client) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsReadTextFile)
}

// WriteTextFile implements acp.Client.
func (c *Client) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, acp.NewMethodNotFound(acp.ClientMethodFsWriteTextFile)
}

// CreateTerminal implements acp.Client.
func (c *Client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalCreate)
}

// KillTerminal implements acp.Client.
func (c *Client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalKill)
}

// TerminalOutput implements acp.Client.
func (c *Client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalOutput)
}

// ReleaseTerminal implements acp.Client.
func (c *Client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalRelease)
}

// WaitForTerminalExit implements acp.Client.
func (c *Client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, acp.NewMethodNotFound(acp.ClientMethodTerminalWaitForExit)
}
