package notes

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// file is a note's file as a folder lists it.
type file struct {
	dir, name string
	size      int
}

// listNotes are dir's note files, oldest first (their names sort by time);
// temporary files are not notes.
func listNotes(dir string) []file {
	entries, _ := os.ReadDir(dir)
	var out []file
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		size := 0
		if fi, err := e.Info(); err == nil {
			size = int(fi.Size())
		}
		out = append(out, file{dir, e.Name(), size})
	}
	return out
}

// prune keeps the store within its limits after a Put to sessionDir: the
// expired notes of every session go, then the oldest of sessionDir beyond
// its bounds, then the oldest of all beyond the total's; empty session
// folders are removed.
func (s *Store) prune(sessionDir string) {
	dropOldest(s.live(listNotes(sessionDir)), s.lim.PerSession, s.lim.SessionBytes)
	var all []file
	sessions, _ := os.ReadDir(s.dir)
	for _, d := range sessions {
		if !d.IsDir() {
			continue
		}
		dir := filepath.Join(s.dir, d.Name())
		fs := s.live(listNotes(dir))
		if len(fs) == 0 && dir != sessionDir {
			os.Remove(dir) // fails, harmlessly, if a note came meanwhile
		}
		all = append(all, fs...)
	}
	slices.SortFunc(all, func(a, b file) int { return strings.Compare(a.name, b.name) })
	dropOldest(all, s.lim.Total, s.lim.TotalBytes)
}

// live removes the expired files of fs and returns the others.
func (s *Store) live(fs []file) []file {
	kept := fs[:0]
	for _, f := range fs {
		var n Note
		b, err := os.ReadFile(filepath.Join(f.dir, f.name))
		if err == nil && json.Unmarshal(b, &n) == nil && !s.expired(n) {
			kept = append(kept, f)
			continue
		}
		if err == nil {
			os.Remove(filepath.Join(f.dir, f.name))
		}
	}
	return kept
}

// dropOldest removes files from the front of fs (oldest first) until at
// most count remain holding at most bytes.
func dropOldest(fs []file, count, bytes int) {
	total := 0
	for _, f := range fs {
		total += f.size
	}
	for len(fs) > 0 && (len(fs) > count || total > bytes) {
		os.Remove(filepath.Join(fs[0].dir, fs[0].name))
		total -= fs[0].size
		fs = fs[1:]
	}
}
