// Package subagent is the register of subagent sessions: a parent
// session's agent announces a child session with a subagent_update (ACP's
// session update carrying the child's sessionId, its title, its working
// folder), and the child's questions and approvals then arrive on the
// child's sessionId, which no session/new ever named. The register, which
// follows the relay, says whose a child is and in which folder
// (Describe), ends the children's sets with their parent's work (through
// Hooks.Cancel), and names a child by its topmost parent to a client that
// knows no children (ToParent). It knows the relay, nothing of the bridge.
package subagent
