// Package answertoken signs the answers a notification's buttons carry.
//
// A button on a phone's notification answers one question set with one of
// its options, with no desk token: the URL it posts to is the credential.
// So each URL holds a token bound to that set and that option, signed with
// HMAC-SHA256 under a key made at random when askbridge starts, which never
// leaves the process (not in a log, a notification, the agent's
// environment, nor the desk's own token). A token is accepted once: Redeem
// spends it. Whether its set is still waiting for an answer is the board's
// to say, not the token's.
package answertoken
