// Package proxy composes askbridge as an ACP proxy (`askbridge -- AGENT`)
// from what its flags say: the bridge on the relay, the desk, the hub's
// reporter, the notifiers, the ask tool's listing and the agent's
// container, and the relay hooks that pick up where questions come from
// (the agent, the editor, each session's folder) for the desk's and the
// hub's cards. cmd/askbridge reads the flags and calls Run.
package proxy
