// Package toolinfo says how a question and its answers are shown to the
// user: the title, kind and text of the tool call and permission request a
// client renders. It knows nothing of the protocol; permission builds the
// messages from what it returns.
package toolinfo
