package hub

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// The history the hub keeps across restarts: the newest keptSets sets that
// ended, one JSON object a line. The file is compacted to them when it
// holds twice as many.
const keptSets = 500

// HistoryPath is where the hub keeps its history:
// $XDG_STATE_HOME/askbridge/hub-history.jsonl, else the system's place for
// a program's state (~/.local/state on Unix, ~/Library/Application Support
// on macOS, %LOCALAPPDATA% on Windows).
func HistoryPath() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		switch runtime.GOOS {
		case "windows":
			dir = os.Getenv("LOCALAPPDATA")
		case "darwin", "ios":
			if home, err := os.UserHomeDir(); err == nil {
				dir = filepath.Join(home, "Library", "Application Support")
			}
		default:
			if home, err := os.UserHomeDir(); err == nil {
				dir = filepath.Join(home, ".local", "state")
			}
		}
	}
	if dir == "" {
		return "", errors.New("no folder for the hub's history: set XDG_STATE_HOME")
	}
	return filepath.Join(dir, "askbridge", "hub-history.jsonl"), nil
}

// kept is one set of the history as the file holds it: the set as the page
// showed it (a secret answer is the placeholder there already), with where
// it came from.
type kept struct {
	Set      json.RawMessage `json:"set"`
	Instance *Instance       `json:"instance,omitempty"`
	CWD      string          `json:"cwd,omitempty"`
}

// Store is the hub's history file.
type Store struct {
	path   string
	logger *slog.Logger

	mu    sync.Mutex
	lines [][]byte // the newest lines, at most 2*keptSets
}

// OpenStore reads the history at path (made, 0600 in a 0700 folder, when
// there is none) and compacts it to the newest sets. A line that is not
// JSON (the last, cut by a crash) is skipped with a log line.
func OpenStore(path string, logger *slog.Logger) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{path: path, logger: logger}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("the hub's history: %w", err)
	}
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the hub's history: %w", err)
	}
	for n, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !json.Valid(line) {
			logger.Warn("hub: skipped a line of the history that is not JSON", "file", path, "line", n+1)
			continue
		}
		s.lines = append(s.lines, line)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s, s.rewrite()
}

// Sets are the sets kept, oldest first.
func (s *Store) sets() []kept {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []kept
	for _, line := range s.lines {
		var k kept
		if json.Unmarshal(line, &k) == nil {
			out = append(out, k)
		}
	}
	return out
}

// add appends a set that ended, compacting the file when it has grown to
// twice what is kept.
func (s *Store) add(k kept) error {
	line, err := json.Marshal(k)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, line)
	if len(s.lines) >= 2*keptSets {
		return s.rewrite()
	}
	f, err := os.OpenFile(s.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// rewrite writes the newest keptSets lines to a new file that replaces the
// old at once; s.mu is held.
func (s *Store) rewrite() error {
	if len(s.lines) > keptSets {
		s.lines = append([][]byte(nil), s.lines[len(s.lines)-keptSets:]...)
	}
	tmp := s.path + ".new"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("the hub's history: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, line := range s.lines {
		w.Write(line)
		w.WriteByte('\n')
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, s.path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("the hub's history: %w", err)
	}
	return os.Chmod(s.path, 0o600)
}
