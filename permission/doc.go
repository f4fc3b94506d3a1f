// Package permission is askbridge's question model: the questions every
// agent dialect normalises to, the rules they must keep, how one question
// becomes a session/request_permission a client can show, how the client's
// outcome becomes an answer, and how a set of answers (or a cancel) goes
// back in the shape each asker reads.
//
// The asking flow (Ask) talks to the client through the small Peer
// interface, so it runs the same over the relay, in tests and in the demo.
// The Board holds the question sets in flight, so that the client, the
// answer desk and a timeout can race and the first answer wins.
package permission
