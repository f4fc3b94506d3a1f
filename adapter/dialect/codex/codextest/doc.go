// Package codextest is Codex's question lines as codex-acp 2.6.0 sends
// them (seen with the real agent), for the tests of the Codex dialect and
// of the bridge: one definition for both.
package codextest
