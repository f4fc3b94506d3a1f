// Package mcphttptest is an MCP host over HTTP written by hand (MCP's
// 2025-06-18 protocol, no SDK), for the tests that need what the SDK
// will not do: drop a tool call's stream without notifications/cancelled.
// Nothing in askbridge's binary imports it.
package mcphttptest
