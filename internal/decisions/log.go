package decisions

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// DefaultMax is how large the log grows before it is rotated: the file
// becomes FILE.1 (the one before is dropped) and a new FILE starts. So at
// most twice this is kept, the newest decisions.
const DefaultMax = 10 << 20

// Log appends records to a file, rotated at a size.
type Log struct {
	path string
	max  int64

	mu   sync.Mutex
	size int64
}

// Open is the log at path (its folder made 0700 when missing; the file is
// 0600), rotated once it would grow beyond max bytes (DefaultMax when
// max <= 0).
func Open(path string, max int64) (*Log, error) {
	if max <= 0 {
		max = DefaultMax
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("the decisions log: %w", err)
	}
	l := &Log{path: path, max: max}
	if fi, err := os.Stat(path); err == nil {
		l.size = fi.Size()
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("the decisions log: %w", err)
	}
	return l, nil
}

// Path is the log's file.
func (l *Log) Path() string { return l.path }

// Append writes r as one line.
func (l *Log) Append(r Record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.size > 0 && l.size+int64(len(line)) > l.max {
		if err := os.Rename(l.path, l.path+".1"); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("the decisions log: rotating: %w", err)
		}
		l.size = 0
	}
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("the decisions log: %w", err)
	}
	n, err := f.Write(line)
	l.size += int64(n)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Read is every record kept at path, oldest first: the rotated file's,
// then the current one's. A line that is not a record (the last, cut by a
// crash) is skipped.
func Read(path string) ([]Record, error) {
	var out []Record
	for _, p := range []string{path + ".1", path} {
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, fmt.Errorf("the decisions log: %w", err)
		}
		err = each(f, func(r Record) { out = append(out, r) })
		f.Close()
		if err != nil {
			return out, fmt.Errorf("the decisions log %s: %w", p, err)
		}
	}
	return out, nil
}

// Lines copies the raw lines kept at path to w, oldest first.
func Lines(path string, w io.Writer) error {
	for _, p := range []string{path + ".1", path} {
		f, err := os.Open(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("the decisions log: %w", err)
		}
		_, err = io.Copy(w, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func each(r io.Reader, fn func(Record)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var rec Record
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Set != "" {
			fn(rec)
		}
	}
	return sc.Err()
}
