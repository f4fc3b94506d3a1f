//go:build !linux

package activation

import "os"

// files are none: socket activation by LISTEN_FDS is systemd's, and
// launchd's (launch_activate_socket) is not taken (docs/desk-and-hub.md
// says why).
func files() ([]*os.File, error) { return nil, nil }
