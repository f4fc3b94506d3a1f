// Package opencode is the dialect of OpenCode 1.x: a question tool call
// ACP cannot answer, answered through OpenCode's own HTTP server.
package opencode
