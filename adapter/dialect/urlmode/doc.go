// Package urlmode is the dialect of ACP's URL-mode elicitation: an agent
// sending the user to a web page (codex-acp's ChatGPT device-code sign-in,
// an MCP server's OAuth), shown to every editor, and on the desk as a link
// the user chooses to open.
package urlmode
