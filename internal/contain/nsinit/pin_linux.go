package nsinit

import (
	"os"
	"syscall"
)

// pinned are the folders to bind onto themselves so that the agent cannot
// rename or replace them: every ancestor of a hidden folder the user could
// rename. The kernel refuses to rename a mount point (EBUSY); without
// this, `mv ~/.config ~/.config.old` carries the hiding tmpfs away and
// leaves a fresh ~/.config/askbridge for the agent to fill. An ancestor is
// pinned when it lies inside the user's home (not the home itself, whose
// parent is not the user's), or when its parent is the user's own (uid, as
// the kernel would check rename: outside the home, a folder of /run/user
// or a cache elsewhere). Outermost first: each bind copies what is
// mounted below it (MS_REC), so it must come before the tmpfs it holds.
// home comes resolved (package contain's -home): path/filepath sorts late
// (doc.go).
func pinned(hide []string, home string, uid int) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hide {
		var chain []string
		for a := dir(h); a != "/" && a != "." && !seen[a]; a = dir(a) {
			if (home != "" && home != "/" && under(a, home) && a != home) || ownedBy(dir(a), uid) {
				chain = append(chain, a)
			}
			seen[a] = true
		}
		for i := len(chain) - 1; i >= 0; i-- {
			out = append(out, chain[i])
		}
	}
	return sortOuterFirst(out)
}

// dir is path's folder, as filepath.Dir gives it for the clean, absolute
// paths package contain passes ("/" for a top-level one).
func dir(path string) string {
	i := len(path) - 1
	for i > 0 && path[i] != '/' {
		i--
	}
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// ownedBy reports whether dir is a folder uid owns (root owns the
// system's: not a reason to pin them).
func ownedBy(dir string, uid int) bool {
	fi, err := os.Lstat(dir)
	if err != nil || uid <= 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}

// sortOuterFirst orders folders so that each comes after its ancestors.
func sortOuterFirst(dirs []string) []string {
	for i := 1; i < len(dirs); i++ {
		for j := i; j > 0 && len(dirs[j]) < len(dirs[j-1]); j-- {
			dirs[j], dirs[j-1] = dirs[j-1], dirs[j]
		}
	}
	return dirs
}

// pin binds each folder onto itself, with what is mounted below it.
func pin(dirs []string) error {
	for _, d := range dirs {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() {
			continue // a symbolic link cannot be pinned; not there, nothing to rename
		}
		if err := syscall.Mount(d, d, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return wrap("pinning "+d, err)
		}
	}
	return nil
}
