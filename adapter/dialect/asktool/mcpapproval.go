package asktool

import (
	"bytes"
	"encoding/json"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// mcpApproval is the shape of one agent's request to run a tool of an MCP
// server a client listed: what askbridge answers for its own tool, and
// nothing that merely resembles it. A shell command, an edit or another
// server's tool has another kind, title or option set, and goes to the
// user untouched.
type mcpApproval struct {
	agent string
	// title is the request's exact toolCall.title for a server and tool.
	title func(server, tool string) string
	// idPrefix starts its toolCall.toolCallId ("" if the agent's ids say
	// nothing of the tool).
	idPrefix func(server, tool string) string
	// kind is its toolCall.kind.
	kind string
	// marker is an option only this agent's MCP tool approvals carry.
	marker string
	// once is the option that lets this one call run and no other.
	once string
}

// mcpApprovals are the agents whose MCP approvals askbridge knows.
//
// Copilot CLI (1.0.102) has no row, on purpose: it asks no approval for a
// tool whose annotations say it is read-only, as askbridge's ask tool does
// (live/copilot_direct_test.go), and for any other MCP tool its request is
// titled with the bare tool name, kind other, options allow_once,
// allow_always, reject_once and the model's own call id: no server in it,
// nothing a request for another server's tool of the same name lacks. Such
// a request goes to the user.
var mcpApprovals = []mcpApproval{{
	// Gemini CLI: "ask_user_question (askbridge-… MCP Server)", kind other,
	// options proceed_always_server, proceed_always_tool, proceed_once,
	// cancel; the call's id is the tool's qualified name and a suffix.
	agent:    "Gemini CLI",
	title:    func(server, tool string) string { return tool + " (" + server + " MCP Server)" },
	idPrefix: func(server, tool string) string { return "mcp_" + server + "_" + tool },
	kind:     string(acp.ToolKindOther),
	marker:   "proceed_always_server",
	once:     "proceed_once",
}}

// permissionRequest is the part of session/request_permission MCPAsk reads.
type permissionRequest struct {
	SessionID string `json:"sessionId"`
	ToolCall  struct {
		ToolCallID string `json:"toolCallId"`
		Title      string `json:"title"`
		Kind       string `json:"kind"`
	} `json:"toolCall"`
	Options []struct {
		OptionID string `json:"optionId"`
		Kind     string `json:"kind"`
	} `json:"options"`
}

// permissionKeys are the keys permissionRequest reads (and the envelope's
// params): a case variant of one, or one twice, makes a request the user's.
var permissionKeys = []string{"params", "sessionId", "toolCall", "toolCallId", "title", "kind", "options", "optionId"}

// ownCall returns the option that lets the call through once when the
// request is an agent's approval of askbridge's own tool on server, and ""
// for anything else.
func (p permissionRequest) ownCall(server string) string {
	for _, a := range mcpApprovals {
		if p.ToolCall.Kind != a.kind || p.ToolCall.Title != a.title(server, mcpToolName) {
			continue
		}
		if a.idPrefix != nil && !strings.HasPrefix(p.ToolCall.ToolCallID, a.idPrefix(server, mcpToolName)) {
			continue
		}
		if p.hasOption(a.marker, "") && p.hasOption(a.once, acp.PermissionOptionKindAllowOnce) {
			return a.once
		}
	}
	return ""
}

// hasOption reports whether the request offers option id (of kind, when
// kind is set).
func (p permissionRequest) hasOption(id string, kind acp.PermissionOptionKind) bool {
	for _, o := range p.Options {
		if o.OptionID == id && (kind == "" || o.Kind == string(kind)) {
			return true
		}
	}
	return false
}

// onPermission answers the agent's approval of askbridge's own tool, in a
// session it was listed in, with the option that allows this one call; any
// other request goes on as it came.
func (d *MCPAsk) onPermission(h dialect.Host) relay.Interceptor {
	return func(m *relay.Message) relay.Verdict {
		if m.ID == nil || !bytes.Contains(m.Raw, []byte(MCPServerPrefix)) {
			return relay.Pass // the common case, decided without decoding
		}
		var p permissionRequest
		if m.Params(&p) != nil {
			return relay.Pass
		}
		if err := exactKeys(m.Raw, permissionKeys...); err != nil {
			h.Logger().Debug("mcp-ask: a permission request not matched as askbridge's own tool", "err", err)
			return relay.Pass
		}
		d.mu.Lock()
		listed, server := d.sessions[p.SessionID], d.server
		d.mu.Unlock()
		option := ""
		if listed && server != "" {
			option = p.ownCall(server)
		}
		if option == "" {
			return relay.Pass
		}
		h.Logger().Debug("mcp-ask: allowed one call of askbridge's ask tool", "session", p.SessionID, "option", option)
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
		return relay.Verdict{Take: true}
	}
}

// runningCall is the session/update announcing the request's tool call as
// running, its fields as the agent sent them; nil if there is none.
func runningCall(m *relay.Message) *rawUpdate {
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
