// Package notify tells the user that a question waits, away from the
// editor: a shell hook (--on-question), a desktop notification (--notify)
// and a webhook (--notify-url, ntfy-style by default).
//
// All of them consume the one event stream the permission.Board publishes,
// the same stream the answer desk's GET /event serves, turned into an
// Event: "asked" when a set goes up, then one of "answered", "cancelled"
// or "timeout". Each consumer delivers the events of one set in order, on
// its own goroutine, each delivery bounded by a timeout: a slow, failing
// or missing consumer is logged and never delays a question or its answer.
//
// The ntfy-style webhook says the question and its choices in plain text;
// with a public URL (--public-url) and the desk's answertoken key, a
// single-choice set of one question also gets a button per option (ntfy's
// http actions), each posting a one-time signed token to the desk's tap
// route, and one that opens the desk (see ntfy.go).
package notify
