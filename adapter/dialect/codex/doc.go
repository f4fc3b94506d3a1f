// Package codex is the dialect of Codex's request_user_input as codex-acp
// asks it: a form elicitation with codex-acp's own fields.
package codex
