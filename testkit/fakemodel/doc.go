// Package fakemodel is a scripted model server on 127.0.0.1 for the live
// tests. It speaks the Anthropic Messages API (Claude Code) and
// OpenAI-compatible chat completions (Qwen Code, OpenCode), streaming or not,
// and the OpenAI Responses API, streamed (Codex). It makes a real agent call
// its question tool with the inputs a test chooses, one call per model turn,
// in order.
//
// It keeps every request body it was sent, and the tool results it read in
// them: those are exactly what a real model would see, so a test can prove an
// answer travelled from the client through the agent to the model.
//
// For Gemini CLI it also speaks the Gemini API (gemini.go): the one-shot
// generateContent its router and checks call, answered with JSON of the
// schema they ask for, and streamGenerateContent, where the question tool is
// an MCP server's, offered as mcp_<server>_<tool>.
package fakemodel
