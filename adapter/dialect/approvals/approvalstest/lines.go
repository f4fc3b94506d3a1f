package approvalstest

// An agent's approval of a shell command: the request names only the tool
// call; what will run came in the tool_call notification (BashCall) before
// it.
const (
	BashCall     = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"toolu_9","title":"Bash","kind":"execute","status":"pending","rawInput":{"command":"rm -rf build"}}}}`
	BashApproval = `{"jsonrpc":"2.0","id":"perm-1","method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"toolu_9","title":"rm -rf build"},"options":[{"optionId":"allow","name":"Allow once","kind":"allow_once"},{"optionId":"always","name":"Always allow","kind":"allow_always"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`
)
