package notes

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/askbridge/askbridge/internal/sockdir"
)

// Kinds of note: how the bridge puts it before the user's prompt.
const (
	KindNote = "note" // a text of its own (a denial's reason)
	KindLate = "late" // one late answer's line, gathered under one heading
)

// Note is one text for a session's next prompt.
type Note struct {
	Kind    string    `json:"kind"`
	Text    string    `json:"text"`
	Written time.Time `json:"written"`
}

// Limits bound a Store.
type Limits struct {
	PerSession, SessionBytes int           // notes and bytes of one session
	Total, TotalBytes        int           // notes and bytes of all sessions
	TTL                      time.Duration // a note older is dropped unread
	MaxText                  int           // a longer text is cut
}

// DefaultLimits: a week, and far more than a person types between prompts.
var DefaultLimits = Limits{PerSession: 32, SessionBytes: 64 << 10, Total: 512, TotalBytes: 1 << 20,
	TTL: 7 * 24 * time.Hour, MaxText: 16 << 10}

// Store is the folder of notes.
type Store struct {
	dir string
	lim Limits
	now func() time.Time
	mu  sync.Mutex // orders this process's writes; other processes race by rename and remove
}

// Open makes (0700) and checks dir: a folder of this user's alone, not a
// symbolic link. The zero Limits means DefaultLimits.
func Open(dir string, lim Limits) (*Store, error) {
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("askbridge's notes: %w", err)
	}
	if err := sockdir.Check(dir); err != nil {
		return nil, fmt.Errorf("askbridge's notes: %w", err)
	}
	return &Store{dir: dir, lim: lim, now: time.Now}, nil
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// sessionDir is session's folder: its id hashed, for an id is the agent's
// text and may hold anything.
func (s *Store) sessionDir(session string) string {
	h := sha256.Sum256([]byte(session))
	return filepath.Join(s.dir, hex.EncodeToString(h[:16]))
}

// Put keeps n for session and returns its id, for Claim. The oldest notes
// go when a bound is passed.
func (s *Store) Put(session string, n Note) (string, error) {
	if s == nil {
		return "", errors.New("no notes store")
	}
	if len(n.Text) > s.lim.MaxText {
		n.Text = n.Text[:s.lim.MaxText] + "…"
	}
	n.Written = s.now()
	b, err := json.Marshal(n)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	dir := s.sessionDir(session)
	// A name that sorts by time: the oldest note first.
	id := fmt.Sprintf("%020d-%s.json", n.Written.UnixNano(), rand.Text()[:8])
	if err := writeFile(dir, id, b); err != nil {
		return "", fmt.Errorf("askbridge's notes: %w", err)
	}
	s.prune(dir)
	return id, nil
}

// writeFile writes b to dir/name whole: a temporary file, 0600, renamed.
func writeFile(dir, name string, b []byte) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	if err := sockdir.Check(dir); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Take removes and returns session's notes, oldest first: the ones this
// process removed, so no other process has them. Expired ones are dropped.
func (s *Store) Take(session string) []Note {
	if s == nil {
		return nil
	}
	dir := s.sessionDir(session)
	if sockdir.Check(dir) != nil {
		return nil // none yet, or not a folder of this user's alone
	}
	var out []Note
	for _, f := range listNotes(dir) {
		b, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil || os.Remove(filepath.Join(dir, f.name)) != nil {
			continue // another askbridge took it first
		}
		var n Note
		if json.Unmarshal(b, &n) != nil || s.expired(n) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// Claim removes the note id of session and reports whether this call did:
// the process that put it delivers it itself only when no other took it.
func (s *Store) Claim(session, id string) bool {
	if s == nil || id == "" || strings.ContainsAny(id, `/\`) {
		return false
	}
	return os.Remove(filepath.Join(s.sessionDir(session), id)) == nil
}

func (s *Store) expired(n Note) bool { return s.now().Sub(n.Written) > s.lim.TTL }
