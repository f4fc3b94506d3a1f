//go:build !linux

package hub

import "net"

// checkPeer lets everyone in: elsewhere than Linux the socket's 0700
// folder and 0600 mode keep other users out.
func checkPeer(*net.UnixConn) error { return nil }
