//go:build !linux

package desk

import (
	"errors"
	"net"
)

// wallSupported: only Linux tells a TCP socket's owner without privileges
// (elsewhere the page's pairing is the wall).
const wallSupported = false

var errNotLoopback = errors.New("not a loopback connection")

func loopbackUID(net.Conn) (int, error) { return -1, errNotLoopback }
