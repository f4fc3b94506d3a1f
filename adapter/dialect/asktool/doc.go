// Package asktool is askbridge's own way to ask: the _askbridge/ask method
// (what `askbridge ask` sends over the ask socket) and the MCP ask tool
// askbridge lists in the sessions of agents that have no question tool.
package asktool
