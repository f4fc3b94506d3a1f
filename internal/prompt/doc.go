// Package prompt asks permission requests in a terminal: an interactive
// list on a TTY (arrows or numbers to move, space to toggle in a
// multi-select, an "Other" row that opens a text input, Enter to submit,
// Esc to cancel), or plain numbered prompts when there is no TTY. It
// answers the same session/request_permission params a client sees, so
// `askbridge ask` and the demo's terminal client share the whole question
// flow with the editor path.
package prompt
