// Package webpush sends the hub's questions and approvals to the paired
// browsers that asked for them, as standard Web Push (RFC 8030), its
// payload end-to-end encrypted to the browser's own keys (RFC 8291) and
// the hub identified by its VAPID key (RFC 8292), through
// github.com/SherClockHolmes/webpush-go: no crypto of askbridge's own.
//
// A push goes only to the address the browser's push subscription names
// (its browser vendor's push service), only if that is an https address on
// the public internet (endpoint.go: checked when stored and at the address
// each connection dials, as whoever holds a device's session names it),
// and only for a device still paired:
// a revoked device's subscription is dropped before anything is sent. A
// push says what waits (the question, or the command, and the choices) and
// opens that card when tapped; nothing is ever answered from the
// notification. Once the set is decided anywhere, a second push with the
// same tag (and Topic) withdraws the notification.
package webpush
