// Package adapter is askbridge's proxy: it starts the real agent, relays
// JSON-RPC lines between the ACP client (askbridge's stdio) and the agent
// (the child's stdio) in order and untouched, and lets hooks rewrite or
// take over chosen methods in either direction.
//
// The relay never decodes a message it does not rewrite: it scans each line
// once for its method and id and forwards the bytes as they came. Question
// bridging plugs in through the Interceptor hooks, one file per agent dialect.
package adapter
