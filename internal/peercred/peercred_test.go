//go:build linux || darwin

package peercred

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGetSaysWhoIsAtTheOtherEnd(t *testing.T) {
	dir, err := os.MkdirTemp("", "pc")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "s"), Net: "unix"})
	require.NoError(t, err)
	defer ln.Close()
	c, err := net.DialUnix("unix", nil, ln.Addr().(*net.UnixAddr))
	require.NoError(t, err)
	defer c.Close()
	s, err := ln.AcceptUnix()
	require.NoError(t, err)
	defer s.Close()
	for _, conn := range []*net.UnixConn{c, s} {
		cred, err := Get(conn)
		require.NoError(t, err)
		assert.Equal(t, Cred{UID: os.Getuid(), PID: os.Getpid()}, cred)
	}
}
