//go:build !linux && !darwin

package peercred

import "net"

// Supported: no peer credentials here (Windows' AF_UNIX has none; the
// other BSDs are not done).
const Supported = false

// Get is ErrUnsupported.
func Get(*net.UnixConn) (Cred, error) { return Cred{}, ErrUnsupported }
