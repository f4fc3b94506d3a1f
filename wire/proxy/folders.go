package proxy

import (
	"os"
	"path/filepath"
)

// madeFolders makes each of askbridge's folders (0700) that is missing,
// before the agent starts, and returns those fit to hide. A folder that
// does not exist cannot be hidden: on an account where no hub has run
// yet, the contained agent would make ~/.config/askbridge itself and
// leave there a key and devices of its own for the user's first hub.
// A folder that holds the home or the working folder is left as it is:
// hiding it would hide the agent's own work.
func madeFolders(dirs []string) []string {
	home, _ := os.UserHomeDir()
	wd, _ := os.Getwd()
	var out []string
	for _, d := range dirs {
		makeFolder(d)
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		if holds(d, home) || holds(d, wd) {
			continue
		}
		out = append(out, d)
	}
	return out
}

// makeFolder makes dir (0700) when it is missing, and says whether it is
// there.
func makeFolder(dir string) bool {
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		os.MkdirAll(dir, 0o700)
	}
	_, err := os.Lstat(dir)
	return err == nil
}

// holds reports whether dir is path or one of its ancestors.
func holds(dir, path string) bool {
	if path == "" {
		return false
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (rel == "." || !startsUp(rel))
}

func startsUp(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}
