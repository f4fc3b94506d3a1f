// Package askwire is the ask socket's wire, defined once: how a program
// the agent starts (`askbridge ask`, the MCP ask tool `askbridge mcp`)
// finds the askbridge that started the agent, and what it sends there.
// The bridge serves it (adapter's socket), the asktool dialects read it,
// and wire/askuser and adapter/mcpask speak it.
package askwire
