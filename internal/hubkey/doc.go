// Package hubkey is the hub's key pair, by which every client tells the
// hub from whatever else listens where it should: Ed25519, made on the
// hub's first start, its private half in askbridge's config folder
// (hub-key, 0600, in a folder of this user's alone, 0700, both checked at
// every start) and its public half beside it (hub-key.pub).
//
// The clients on the hub's socket (a reporting askbridge, `askbridge
// inbox`, `askbridge hub pair`) speak TLS 1.3 over it and go on only when
// the hub's certificate carries the key they trust (ClientTLS): the
// handshake has the hub sign the client's fresh random with the
// connection's own key exchange, so a process that took the socket's
// place, or relays it, gets nowhere without the private key. The key they
// trust is $ASKBRIDGE_HUB_KEY when set (on a machine that reaches a hub
// elsewhere through an SSH-forwarded socket: `askbridge hub key` prints
// it), else this machine's hub-key.pub (Trusted): there is no first use to
// win, since a client never learns a key from the socket.
//
// The hub's page proves the key to the browser by signing the page's
// fresh nonce (Prove, Verify); and the devices file is sealed with a key
// derived from it (Derive), so that an edit is refused.
package hubkey
