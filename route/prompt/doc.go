// Package prompt asks permission requests in a terminal: on a TTY with
// huh's select, multi-select and text input (arrows to move, Space to toggle
// in a multi-select, an "Other" row that opens a text input, Enter to
// submit, Esc to cancel), which wrap to the terminal's width and follow its
// resizing; with plain numbered prompts when there is no TTY (1, 1,3 for
// several, 0 then a line of text for Other; invalid input is asked again,
// end of input cancels). It answers the same session/request_permission
// params a client sees, so `askbridge ask` and the demo's terminal client
// share the whole question flow with the editor path.
package prompt
