// Package toychat is the answer route of docs/development.md's recipe, as
// a folder of its own: a chat bridge whose callbacks (a person tapping an
// option in a chat) carry an HMAC of what they answer under a key shared
// with the chat's bot. It declares its route and its credential with the
// board (permission.NewRoute, NewProof), and nothing else in askbridge
// names it: the gate weighs its answers from what it declared, so its
// approval is refused without the user's presence however well signed.
package toychat
