package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// Inject says when askbridge lists its ask tool in an agent's sessions.
type Inject int

const (
	// InjectAuto, the zero value, lists it for agents without a question
	// dialect of their own.
	InjectAuto Inject = iota
	// InjectAlways lists it for every agent.
	InjectAlways
	// InjectNever never lists it.
	InjectNever
)

// String is the flag spelling.
func (i Inject) String() string {
	switch i {
	case InjectAlways:
		return "always"
	case InjectNever:
		return "never"
	}
	return "auto"
}

// Set parses the flag spelling, so an Inject is a flag.Value.
func (i *Inject) Set(s string) error {
	switch s {
	case "auto", "":
		*i = InjectAuto
	case "always":
		*i = InjectAlways
	case "never":
		*i = InjectNever
	default:
		return fmt.Errorf("%q: want auto, always or never", s)
	}
	return nil
}

// agentIdentity is the part of initialize's response MCPAsk reads.
type agentIdentity struct {
	AgentInfo struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	} `json:"agentInfo"`
	AgentCapabilities struct {
		SessionCapabilities struct {
			Fork   *struct{} `json:"fork"`
			Resume *struct{} `json:"resume"`
		} `json:"sessionCapabilities"`
	} `json:"agentCapabilities"`
	known bool
}

// ownDialects are the agents that ask in a way askbridge already handles
// (forms, Qwen's permission request, OpenCode's server, Cursor's
// extensions): auto gives them no second question tool.
var ownDialects = []string{"claude", "qwen", "opencode", "codex", "cursor", "devin"}

// injects decides for one session-creating request.
func (d *MCPAsk) injects(h Host, method string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.Inject == InjectNever || d.Command == "" || d.Socket == "" {
		return false
	}
	caps := d.agent.AgentCapabilities.SessionCapabilities
	if method == acp.AgentMethodSessionFork && caps.Fork == nil || method == acp.AgentMethodSessionResume && caps.Resume == nil {
		return false // not a method the agent advertised
	}
	if d.Inject == InjectAlways {
		return true
	}
	for _, w := range d.agentWords() {
		for _, own := range ownDialects {
			if w == own {
				return false
			}
		}
	}
	return true
}

// agentWords are the words that name the agent: its agentInfo, and its
// program (with the package or script a runner such as npx or node starts).
// Arguments further on are not read: `kiro-cli acp --model claude-sonnet`
// is not Claude.
func (d *MCPAsk) agentWords() []string {
	names := []string{d.agent.AgentInfo.Name, d.agent.AgentInfo.Title}
	if len(d.Argv) > 0 {
		names = append(names, filepath.Base(d.Argv[0]))
		if filepath.Base(d.Argv[0]) == "agent" && slices.Contains(d.Argv[1:], "acp") {
			names = append(names, "cursor") // Cursor's CLI is `agent acp`
		}
		switch strings.TrimSuffix(filepath.Base(d.Argv[0]), ".exe") {
		case "node", "npx", "bunx", "bun", "deno", "pnpm", "pnpx", "yarn", "uvx", "pipx", "python", "python3", "env":
			for _, a := range d.Argv[1:] {
				if !strings.HasPrefix(a, "-") && a != "run" && a != "exec" && a != "dlx" {
					names = append(names, a)
					break
				}
			}
		}
	}
	return strings.FieldsFunc(strings.ToLower(strings.Join(names, " ")), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
}

// isGemini reports whether the agent is Gemini CLI.
func (d *MCPAsk) isGemini() bool {
	for _, w := range d.agentWords() {
		if w == "gemini" {
			return true
		}
	}
	return false
}

// noteGemini says once, when listing the tool for Gemini CLI, what makes
// Gemini drop it without a word.
func (d *MCPAsk) noteGemini(h Host) {
	d.mu.Lock()
	first := !d.noted && d.isGemini()
	d.noted = d.noted || first
	d.mu.Unlock()
	if !first {
		return
	}
	const note = "mcp-ask: Gemini CLI starts askbridge's ask tool only in a folder it trusts; elsewhere it drops the tool silently and the model cannot ask"
	if os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		h.Logger().Info(note + " (GEMINI_CLI_TRUST_WORKSPACE=true is set: every folder is trusted)")
		return
	}
	h.Logger().Warn(note + ": trust the folder in Gemini CLI (/permissions, or ~/.gemini/trustedFolders.json), or start it with GEMINI_CLI_TRUST_WORKSPACE=true")
}

// permissionRequest is the part of session/request_permission MCPAsk reads.
type permissionRequest struct {
	SessionID string `json:"sessionId"`
	ToolCall  struct {
		ToolCallID string `json:"toolCallId"`
		Title      string `json:"title"`
	} `json:"toolCall"`
	Options []struct {
		OptionID string `json:"optionId"`
		Kind     string `json:"kind"`
	} `json:"options"`
}

// ownTool reports whether the request is for askbridge's tool: Gemini
// titles it "ask_user_question (askbridge MCP Server)" and ids the call
// mcp_askbridge_ask_user_question__…; other agents name the server and the
// tool in the title in some other way.
func (p permissionRequest) ownTool() bool {
	id, title := p.ToolCall.ToolCallID, p.ToolCall.Title
	return strings.HasPrefix(id, "mcp_"+mcpServerName+"_"+mcpToolName) ||
		strings.Contains(title, mcpToolName) && strings.Contains(title, mcpServerName)
}

// allowOption is the option that allows the tool for longest: the whole
// server for the session, else the tool, else once.
func (p permissionRequest) allowOption() string {
	best, rank := "", 0
	for _, o := range p.Options {
		r := 0
		switch {
		case o.OptionID == "proceed_always_server":
			r = 3
		case o.Kind == string(acp.PermissionOptionKindAllowAlways):
			r = 2
		case o.Kind == string(acp.PermissionOptionKindAllowOnce):
			r = 1
		}
		if r > rank {
			best, rank = o.OptionID, r
		}
	}
	return best
}

// onPermission answers the agent's permission request for askbridge's own
// tool, in a session it was listed in; any other request goes on.
func (d *MCPAsk) onPermission(h Host) Interceptor {
	return func(m *Message) Verdict {
		if m.ID == nil || !bytes.Contains(m.Raw, []byte(mcpToolName)) {
			return Pass // the common case, decided without decoding
		}
		var p permissionRequest
		if m.Params(&p) != nil || !p.ownTool() {
			return Pass
		}
		d.mu.Lock()
		listed, told := d.sessions[p.SessionID], d.allowed[p.SessionID]
		d.mu.Unlock()
		option := p.allowOption()
		if !listed || option == "" {
			return Pass
		}
		if !told {
			h.Logger().Info("mcp-ask: allowed askbridge's ask tool for the session", "session", p.SessionID, "option", option)
			d.mu.Lock()
			if d.allowed == nil {
				d.allowed = map[string]bool{}
			}
			d.allowed[p.SessionID] = true
			d.mu.Unlock()
		}
		m = m.Clone()
		// Not on the reading goroutine: a write may wait on the other side.
		go func() {
			// The client learns of the tool call as it would have from the
			// request: Gemini's later updates of it name it.
			if call := runningCall(m); call != nil {
				h.Client().Notify(acp.ClientMethodSessionUpdate, call)
			}
			h.Agent().Reply(m.ID, acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(acp.PermissionOptionId(option))})
		}()
		return Verdict{Take: true}
	}
}

// runningCall is the session/update announcing the request's tool call as
// running, its fields as the agent sent them; nil if there is none.
func runningCall(m *Message) *rawUpdate {
	var p struct {
		SessionID string                     `json:"sessionId"`
		ToolCall  map[string]json.RawMessage `json:"toolCall"`
	}
	if m.Params(&p) != nil || p.ToolCall == nil {
		return nil
	}
	p.ToolCall["sessionUpdate"] = json.RawMessage(`"tool_call"`)
	p.ToolCall["status"] = json.RawMessage(`"in_progress"`)
	return &rawUpdate{SessionID: p.SessionID, Update: p.ToolCall}
}

// rawUpdate is a session/update whose update keeps the agent's own fields,
// which the SDK's tool call type would drop (it knows no future field).
type rawUpdate struct {
	SessionID string                     `json:"sessionId"`
	Update    map[string]json.RawMessage `json:"update"`
}
