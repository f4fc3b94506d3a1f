// Package relay is askbridge's byte relay: it starts the agent as a child
// process, moves JSON-RPC lines between the client (askbridge's stdio) and
// the agent (the child's stdio) in order and untouched, and lets hooks
// rewrite or take over chosen methods in either direction. It knows
// JSON-RPC and nothing of ACP: the bridge and its question dialects, in
// package adapter, sit on its hooks.
//
// The relay never decodes a message it does not rewrite: it scans each line
// once for its method and id (scan.go) and forwards the bytes as they came,
// from its read buffer where it can. Per direction, lines leave in the order
// they arrived, and the reading goroutine never waits for a reply: a
// request is forwarded at once and its response matched by id (idkey.go)
// when it comes back on the other side's loop. Several interceptors may
// share a method: they run in the order added, the first that takes a
// message claims it, a replacement is handed on to the next, and every
// response hook sees the response.
//
// Around the lines: askbridge's own requests to either side (Peer.Call,
// with ids the other side cannot guess), one response per forwarded request
// (pending.go), --max-line (toolong.go), --record (record.go, with hooks for
// what the layer above adds and hides), and the agent's process from start
// to its last grandchild (agent.go, proc_*.go, run.go).
package relay
