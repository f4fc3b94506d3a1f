// Package mcpask is `askbridge mcp`: a stdio MCP server with one tool,
// ask_user_question, for agents that have no question tool of their own
// under ACP (Gemini CLI, Mistral Vibe, Kiro...). askbridge lists it in the
// session/new it forwards, the agent starts it, and every call asks the user
// through the askbridge that started the agent: over the `askbridge ask`
// socket (ASKBRIDGE_SOCKET), with the session's tag (ASKBRIDGE_MCP_TAG), so
// the question shows in the editor of the session that started the server.
//
// For agents that start no stdio server (Copilot CLI), askbridge serves the
// same tool itself over MCP's streamable HTTP transport (HTTP): on
// 127.0.0.1, a path per listing carrying its tag, and a bearer token per
// listing, asking through the same socket.
//
// The tool takes the question set askbridge validates everywhere else and
// checks it with the same rules before asking, so a model gets every
// violation at once. Whatever goes wrong — invalid input, a cancel, no
// askbridge to reach, askbridge gone mid-question — comes back at once as a
// tool error result the model can read, never as a hang.
package mcpask
