package desk

import (
	"net"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The kernel's answer and /proc's agree on who owns a loopback connection's
// client end, on both families.
func TestLoopbackUIDBySockDiagAndProc(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			continue // no IPv6 loopback here
		}
		c, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		s, err := ln.Accept()
		require.NoError(t, err)
		remote, local := s.RemoteAddr().(*net.TCPAddr), s.LocalAddr().(*net.TCPAddr)
		uid, err := diagUID(remote, local)
		require.NoError(t, err, addr)
		assert.Equal(t, os.Getuid(), uid, addr)
		uid, err = procUID(remote, local)
		require.NoError(t, err, addr)
		assert.Equal(t, os.Getuid(), uid, addr)
		_, err = diagUID(local, &net.TCPAddr{IP: remote.IP, Port: 1})
		assert.Error(t, err, "no such socket")
		c.Close()
		s.Close()
		ln.Close()
	}
}
