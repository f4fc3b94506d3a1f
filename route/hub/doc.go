// Package hub is askbridge hub: one process per user that every askbridge
// on the machine reports its question sets to, so that one page (the
// desk's, over the hub's own permission.Board) shows and answers them all.
//
// The askbridges reach the hub on a Unix socket in a 0700 directory, the
// socket itself 0600, and on Linux the peer's uid is checked too
// (SO_PEERCRED): only the same user's askbridges get in. Each connection
// is TLS 1.3 of the hub's key (hubkey, Dial): a client goes on only with a
// hub that proves the key it trusts, and never with a listener inside its
// own process tree. They speak JSON lines (wire.go): an askbridge says hello, then each set as it is asked
// and as it ends; the hub sends back the answers, rejects and holds given
// at its page, which the askbridge puts on its own board as any other
// front end's (permission.SourceHub): the first answer wins, and the
// editor's request is withdrawn.
//
// The socket also serves `askbridge hub pair`, `hub devices` and `hub
// revoke` (devices.go): a pairing code goes only to a process of the user
// that does not run under an askbridge, connected or not (peer_exe_*.go
// tells an askbridge by what a hub that is not root can read of it). The page groups sets by
// connection, with the pid the kernel gives (peerpid_*.go), so no process
// can pass for another askbridge.
//
// Nothing in an askbridge waits on the hub (Report): its messages go
// through a bounded queue, and a hub that is slow, stopped or gone costs a
// dropped connection and a reconnect, which sends every pending set again.
package hub
