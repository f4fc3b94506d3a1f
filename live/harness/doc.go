// Package harness runs a real ACP agent (claude-agent-acp, qwen-code,
// opencode) from live/node_modules against a fakemodel server, either
// directly or wrapped as `askbridge -- AGENT...`, and talks to it with a
// scripted ACP client.
//
// Every run gets its own HOME in a temp dir, its own process group (killed
// at the end, whatever the agent spawned), and a deadline. Every JSON line
// in both directions can be recorded to a JSONL file: the raw material of
// /work/notes/wire.md and of conformance fixtures.
package harness
