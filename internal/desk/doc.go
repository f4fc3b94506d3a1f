// Package desk is askbridge's answer desk: pending question sets over a
// small HTTP API (compatible with OpenCode's question routes) and a web
// page, for questions that fit an editor's buttons badly and for agents
// run headless. It answers through the permission.Board, so the desk and
// the client's permission requests race and the first answer wins; the
// bridge then withdraws the request still open at the client.
//
// It listens on loopback only unless told otherwise, wants the token it
// printed at start on every request, refuses other origins and hosts (DNS
// rebinding), and shows agent text only as text.
package desk
