package adapter

import "os"

// askSocketDir makes a fresh directory for the ask socket that only this
// user can open: the socket's path is all a process needs to ask the user
// a question in the editor. Where it lives is per OS (socketBase):
// $XDG_RUNTIME_DIR or the temporary directory on Unix, %LOCALAPPDATA% on
// Windows; never a fixed /tmp path another user could take first.
func askSocketDir() (string, error) {
	base, err := socketBase()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(base, "askbridge-")
	if err != nil {
		return "", err
	}
	if err := restrictToUser(dir); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}
