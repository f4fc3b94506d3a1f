// Package hubserve composes `askbridge hub` from what its flags say: the
// askbridges' socket and the inbox's, the page (the desk in hub mode), the
// history and decisions log, Web Push, the notifiers, and the pairing codes
// shown on the hub's own terminal. cmd/askbridge reads the flags and calls
// Run.
package hubserve
