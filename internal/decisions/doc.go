// Package decisions is the hub's record of who decided what: one JSON
// line per question set or approval that ended (when, which agent and
// folder, what was asked, the outcome, which route and device decided it,
// how long it waited), appended to a file in the hub's state folder that
// is bounded and rotated (Log). `askbridge hub log` reads it back (Read).
//
// What a record holds comes from the board's own view of a set, where the
// typed answer to a secret question is already permission.SecretText; an
// approval's tool call is kept as its title and a digest of its arguments,
// never the arguments themselves, so the record can say "the same command
// as that one" without repeating what the agent was about to run.
//
// An approval decided at a paired device's page with its passkey is
// signed over its Statement (what the hub applies, canonical bytes whose
// SHA-256 is the WebAuthn challenge); its record keeps the statement and
// the assertion (permission.Signed), and Verify checks them offline.
package decisions
