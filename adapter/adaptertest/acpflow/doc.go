// Package acpflow is what a flow test sends and reads of an ACP session
// between a scripted client and a scripted agent (relaytest's harness):
// the session opened, the requests the client is asked, its answers, the
// agent's replies and prompts, the board a set reaches. It knows no
// bridge, so the bridge's own tests (package adapter) and the dialects'
// flow tests (on adaptertest, which adds the bridge) share it: one
// harness, no copy.
package acpflow
