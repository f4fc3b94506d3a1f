// Package desk is askbridge's answer desk: pending question sets over a
// small HTTP API (compatible with OpenCode's question routes) and a web
// page, for questions that fit an editor's buttons badly and for agents
// run headless. It answers through the permission.Board, so the desk and
// the client's permission requests race and the first answer wins; the
// bridge then withdraws the request still open at the client. A set whose
// picks bring follow-ups is answered a step at a time (Board.Progress).
// With --question-timeout a set carries its deadline: the page counts it
// down, working on an answer holds it off (Board.Hold), and an answer
// that comes after it is refused with 410 Gone, never dropped silently.
//
// It listens on loopback only unless told otherwise, wants a paired
// device's session on every API request (auth.go: a browser pairs with a
// single-use code shown where only the user sees it, pair.go, and holds an
// HttpOnly cookie plus a key kept per origin, since cookies ignore ports),
// takes an approval's answer only with the device's passkey assertion,
// user verified (presence.go, WebAuthn), refuses other origins and hosts
// (DNS rebinding), shows agent text only as text, and bounds what a client
// can hold: connections, idle time, request time. Typed answers go through
// permission.Typed like every other path's.
//
// With Options.Taps, POST /tap/{token} takes a notification's answer
// button: no session, the one-time signed token (answertoken) is the
// credential, and it answers only its set (never an approval), with its
// option, while the set waits. Options.PublicURL names the host a phone reaches the desk at.
// With Options.TLS it serves HTTPS only (the hub's --tls-cert), and its
// own origin is then https:// and the host asked for.
package desk
