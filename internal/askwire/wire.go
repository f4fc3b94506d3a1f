package askwire

import "encoding/json"

const (
	// SocketEnv carries the ask socket's path to the agent and what it
	// starts.
	SocketEnv = "ASKBRIDGE_SOCKET"
	// TagEnv carries the tag of the session/new that listed the MCP ask
	// tool: it names that session.
	TagEnv = "ASKBRIDGE_MCP_TAG"
	// Method asks a question set (Params); the result is what Format says.
	Method = "_askbridge/ask"
	// StoppedWaitingMethod tells askbridge, on the connection of an ask
	// still open, that the MCP host ended the tool call (its timeout, or
	// notifications/cancelled): the question stays answerable, and the
	// answer reaches the model later (the adapter's late answers). Without
	// it a closed connection withdraws the question, as for `askbridge ask`.
	StoppedWaitingMethod = "_askbridge/stoppedWaiting"
)

// Params are Method's.
type Params struct {
	// Questions are AskUserQuestion's, as the model wrote them.
	Questions  json.RawMessage `json:"questions"`
	SessionID  string          `json:"sessionId,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	// Format "cli" asks for `askbridge ask`'s output instead of the SDK
	// result; "result" for the permission.Result itself (`askbridge mcp`).
	Format string `json:"format,omitempty"`
	// MCPTag names the session whose session/new started `askbridge mcp`.
	MCPTag string `json:"mcpTag,omitempty"`
}

// StoppedWaiting are StoppedWaitingMethod's params.
type StoppedWaiting struct {
	Reason string `json:"reason,omitempty"`
}
