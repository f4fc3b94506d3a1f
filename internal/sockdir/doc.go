// Package sockdir keeps askbridge's Unix sockets (the hub's, the inbox's,
// each askbridge's ask socket) in folders only this user can open, and
// checks a socket's folder before anything listens on it or dials it: a
// directory, not a symbolic link, owned by this uid, mode 0700. A socket
// in a folder another user could create first, or swap, would let that
// user pose as the hub (and collect answers) or as askbridge.
//
// Base is askbridge's own folder for them: under $XDG_RUNTIME_DIR when the
// session has one, the per-user $TMPDIR on macOS, else under the user's
// cache folder; never a shared /tmp path. Dial checks the folder, then the
// peer's uid where the OS tells it (peercred).
package sockdir
