package hub

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// storeLines waits until the history file holds n lines.
func storeLines(t *testing.T, path string, n int) []byte {
	t.Helper()
	var b []byte
	require.Eventually(t, func() bool {
		b, _ = os.ReadFile(path)
		return bytes.Count(b, []byte("\n")) == n
	}, 5*time.Second, 10*time.Millisecond, "want %d sets in the history", n)
	return b
}

// A hub that restarts shows the sets that ended before it, with their
// agent and folder, and never the answer to a secret question.
func TestTheHistoryOutlivesTheHub(t *testing.T) {
	path := socket(t)
	// Not t.TempDir: the hub's last sets end (and are kept) as its
	// askbridges go, after the test.
	dir, err := os.MkdirTemp("", "abhist")
	require.NoError(t, err)
	t.Cleanup(func() { time.Sleep(200 * time.Millisecond); os.RemoveAll(dir) })
	file := filepath.Join(dir, "state", "askbridge", "hub-history.jsonl")
	store, err := OpenStore(file, nil)
	require.NoError(t, err)
	h, hb, stop := startHub(t, path)
	h.Keep(store)
	b, _ := report(t, path, "/src/api")
	plain := ask(b, "s", "Which database?")
	secret := b.Open(permission.Request{SessionID: "s", Round: 2, Questions: []permission.Question{
		{Question: "The token?", Header: "Token", Kind: permission.Secret, Options: []permission.Option{{Label: "none"}, {Label: "later"}}}}})
	list := waitPending(t, hb, 2)
	for _, p := range list {
		q := p.Questions[0]
		a := permission.Answer{Labels: []string{"a"}}
		if q.Kind.Secret {
			a = permission.Answer{Other: true, Custom: "hunter2-s3cr3t"}
		}
		require.NoError(t, hb.Settle(p.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{{Question: q, Answer: a, Path: "questions[0]"}}}, permission.ByEditor()))
	}
	<-plain.Done()
	<-secret.Done()
	assert.Equal(t, "hunter2-s3cr3t", secret.Result().Answers[0].Answer.Custom, "the agent gets what was typed")
	kept := storeLines(t, file, 2)
	assert.NotContains(t, string(kept), "hunter2", "a secret answer never reaches the file")
	assert.Contains(t, string(kept), permission.SecretText)
	st, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	st, err = os.Stat(filepath.Dir(file))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), st.Mode().Perm())
	stop()

	store2, err := OpenStore(file, nil)
	require.NoError(t, err)
	h2, hb2, _ := startHub(t, path)
	h2.Keep(store2)
	sessions := hb2.Sessions()
	require.Len(t, sessions, 1)
	sets, ok := hb2.History(sessions[0])
	require.True(t, ok)
	require.Len(t, sets, 2)
	assert.Equal(t, permission.StateAnswered, sets[0].State)
	assert.Equal(t, "a", sets[0].Result.Answers[0].Answer.Text())
	assert.Equal(t, permission.SecretText, sets[1].Result.Answers[0].Answer.Text())
	inst := sets[0].Origin // the board's history keeps where it came from
	require.NotNil(t, inst)
	assert.Equal(t, "scripted", inst.Agent)
	assert.Equal(t, "/src/api", inst.Folder)
	assert.Empty(t, hb2.List(), "nothing of the history is pending")

	// A new askbridge is not taken for the old one, and its sets get new ids.
	b2, _ := report(t, path, "/src/web")
	ask(b2, "s", "Which port?")
	p := waitPending(t, hb2, 1)[0]
	assert.NotEqual(t, sessions[0], p.SessionID)
	assert.NotContains(t, []string{sets[0].ID, sets[1].ID}, p.ID)
}

func keptLine(i int) string {
	return fmt.Sprintf(`{"set":{"id":"q%d","sessionID":"a1/s","questions":[],"round":%d,"state":"cancelled"},"cwd":"/src"}`, i, i)
}

// A crash may cut the last line: it is skipped, and the file is whole again.
func TestATornLineOfTheHistoryIsSkipped(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hub-history.jsonl")
	require.NoError(t, os.WriteFile(file, []byte(keptLine(1)+"\n"+keptLine(2)+"\n"+keptLine(3)[:30]), 0o600))
	var log syncLog
	s, err := OpenStore(file, log.logger())
	require.NoError(t, err)
	assert.Len(t, s.sets(), 2)
	assert.Contains(t, log.String(), "not JSON")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, keptLine(1)+"\n"+keptLine(2)+"\n", string(b))
}

// The history keeps the newest sets only, however long the hub runs.
func TestTheHistoryIsBounded(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hub-history.jsonl")
	var lines []string
	for i := 1; i <= 3*keptSets; i++ {
		lines = append(lines, keptLine(i))
	}
	require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	s, err := OpenStore(file, nil)
	require.NoError(t, err)
	sets := s.sets()
	require.Len(t, sets, keptSets)
	assert.Contains(t, string(sets[0].Set), fmt.Sprintf(`"q%d"`, 2*keptSets+1), "the newest are kept")
	for i := range 2 * keptSets {
		require.NoError(t, s.add(kept{Set: []byte(fmt.Sprintf(`{"id":"q%d"}`, 10000+i))}))
	}
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.LessOrEqual(t, bytes.Count(b, []byte("\n")), 2*keptSets, "the file is compacted as it grows")
	assert.Len(t, s.sets(), keptSets)
}

func TestHistoryPathFollowsXDGStateHome(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	p, err := HistoryPath()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "askbridge", "hub-history.jsonl"), p)
}

// syncLog is a log the test reads.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *syncLog) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }
