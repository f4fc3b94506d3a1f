package notes

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/testkit/testenv"
)

func open(t *testing.T, lim Limits) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "notes"), lim)
	require.NoError(t, err)
	return s
}

// texts are the notes' texts.
func texts(ns []Note) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Text)
	}
	return out
}

// A note put by one Store is taken by another on the same folder (another
// askbridge process), oldest first, and only once; another session's stay.
func TestTakeDeliversOnceAcrossStores(t *testing.T) {
	a := open(t, Limits{})
	b, err := Open(a.Dir(), Limits{})
	require.NoError(t, err)
	_, err = a.Put("sess-1", Note{Kind: KindNote, Text: "first"})
	require.NoError(t, err)
	_, err = a.Put("sess-1", Note{Kind: KindLate, Text: "second"})
	require.NoError(t, err)
	_, err = a.Put("sess-2", Note{Kind: KindNote, Text: "other"})
	require.NoError(t, err)
	got := b.Take("sess-1")
	assert.Equal(t, []string{"first", "second"}, texts(got))
	assert.Equal(t, KindLate, got[1].Kind)
	assert.Empty(t, a.Take("sess-1"), "delivered twice")
	assert.Equal(t, []string{"other"}, texts(a.Take("sess-2")))
}

// Many askbridges taking one session's notes at once hand each on once.
func TestConcurrentTakersDeliverEachNoteOnce(t *testing.T) {
	testenv.SkipUnderWine(t, testenv.NoAtomicRemove)
	a := open(t, Limits{})
	for i := range 20 {
		_, err := a.Put("s", Note{Kind: KindNote, Text: fmt.Sprint(i)})
		require.NoError(t, err)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		s, err := Open(a.Dir(), Limits{})
		require.NoError(t, err)
		wg.Go(func() {
			for _, n := range s.Take("s") {
				mu.Lock()
				seen[n.Text]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	assert.Len(t, seen, 20)
	for text, n := range seen {
		assert.Equal(t, 1, n, "note %s delivered %d times", text, n)
	}
}

// Claim lets the process that put a note deliver it itself, unless another
// took it first.
func TestClaim(t *testing.T) {
	a := open(t, Limits{})
	id, err := a.Put("s", Note{Kind: KindNote, Text: "x"})
	require.NoError(t, err)
	assert.True(t, a.Claim("s", id))
	assert.False(t, a.Claim("s", id), "claimed twice")
	assert.Empty(t, a.Take("s"))
	id, err = a.Put("s", Note{Kind: KindNote, Text: "y"})
	require.NoError(t, err)
	assert.Len(t, a.Take("s"), 1)
	assert.False(t, a.Claim("s", id), "claimed after another took it")
	assert.False(t, a.Claim("s", "../x"))
}

// A note older than the TTL is dropped unread.
func TestExpiredNotesAreDropped(t *testing.T) {
	a := open(t, Limits{})
	clock := time.Now()
	a.now = func() time.Time { return clock }
	_, err := a.Put("s", Note{Kind: KindNote, Text: "old"})
	require.NoError(t, err)
	clock = clock.Add(DefaultLimits.TTL + time.Minute)
	_, err = a.Put("s", Note{Kind: KindNote, Text: "new"})
	require.NoError(t, err)
	assert.Equal(t, []string{"new"}, texts(a.Take("s")))
	_, err = a.Put("s", Note{Kind: KindNote, Text: "later"})
	require.NoError(t, err)
	clock = clock.Add(DefaultLimits.TTL + time.Minute)
	assert.Empty(t, a.Take("s"), "an expired note was delivered")
}

// The store keeps within its bounds: the oldest go first, per session and
// in all; a long text is cut.
func TestStoreIsBounded(t *testing.T) {
	lim := Limits{PerSession: 3, SessionBytes: 1 << 20, Total: 5, TotalBytes: 1 << 20, TTL: time.Hour, MaxText: 100}
	a := open(t, lim)
	for i := range 5 {
		_, err := a.Put("s1", Note{Kind: KindNote, Text: fmt.Sprint(i)})
		require.NoError(t, err)
	}
	for i := range 4 {
		_, err := a.Put("s2", Note{Kind: KindNote, Text: fmt.Sprint(i)})
		require.NoError(t, err)
	}
	s1, s2 := texts(a.Take("s1")), texts(a.Take("s2"))
	assert.LessOrEqual(t, len(s1)+len(s2), 5, "total bound")
	assert.Equal(t, []string{"1", "2", "3"}, s2, "per-session bound keeps the newest")
	assert.Subset(t, []string{"2", "3", "4"}, s1)
	assert.Contains(t, s1, "4", "the newest of s1 stays")

	_, err := a.Put("s3", Note{Kind: KindNote, Text: strings.Repeat("x", 500)})
	require.NoError(t, err)
	assert.Len(t, a.Take("s3")[0].Text, 100+len("…"))

	b := open(t, Limits{PerSession: 100, SessionBytes: 1000, Total: 100, TotalBytes: 1 << 20, TTL: time.Hour, MaxText: 1000})
	for range 10 {
		_, err := b.Put("s", Note{Kind: KindNote, Text: strings.Repeat("y", 300)})
		require.NoError(t, err)
	}
	assert.LessOrEqual(t, len(b.Take("s")), 3, "byte bound")
}

// The folders are 0700 and the files 0600; a folder others can enter is
// refused.
func TestModes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix modes")
	}
	a := open(t, Limits{})
	_, err := a.Put("s", Note{Kind: KindNote, Text: "x"})
	require.NoError(t, err)
	fi, err := os.Stat(a.Dir())
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	dir := a.sessionDir("s")
	fi, err = os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	fs := listNotes(dir)
	require.Len(t, fs, 1)
	fi, err = os.Stat(filepath.Join(dir, fs[0].name))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	require.NoError(t, os.Chmod(a.Dir(), 0o755))
	_, err = Open(a.Dir(), Limits{})
	assert.Error(t, err, "a folder others can enter")

	// A session folder that is a symbolic link is read from nowhere.
	require.NoError(t, os.Chmod(a.Dir(), 0o700))
	other := t.TempDir()
	_, err = a.Put("t", Note{Kind: KindNote, Text: "planted"})
	require.NoError(t, err)
	require.NoError(t, os.Rename(a.sessionDir("t"), filepath.Join(other, "t")))
	require.NoError(t, os.Symlink(filepath.Join(other, "t"), a.sessionDir("t")))
	assert.Empty(t, a.Take("t"), "read through a symbolic link")
}
