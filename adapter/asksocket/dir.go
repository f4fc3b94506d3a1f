package asksocket

import (
	"os"

	"github.com/askbridge/askbridge/internal/sockdir"
)

// askSocketDir makes a fresh directory for the ask socket that only this
// user can open: the socket's path is all a process needs to ask the user
// a question in the editor. It lives in askbridge's private folder for
// sockets (sockdir.Base: under $XDG_RUNTIME_DIR, macOS's per-user
// $TMPDIR, else the user's cache folder), never a /tmp path another user
// could take first, and is checked before anything listens in it.
func askSocketDir() (string, error) {
	base, err := sockdir.Base()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(base, "ask-")
	if err != nil {
		return "", err
	}
	if err := restrictToUser(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	if err := sockdir.Check(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}
