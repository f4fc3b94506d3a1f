//go:build unix

package notify

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Agent text with a NUL byte, or longer than an environment takes, still
// runs the hook: the environment gets it without NULs and cut, marked; the
// JSON on stdin has it whole.
func TestHookRunsWithNULsAndHugeAgentText(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Hook: `printf '%s' "$ASKBRIDGE_SESSION" > "$OUT/session"; printf '%s' "$ASKBRIDGE_TITLE" > "$OUT/title"
cat > "$OUT/$ASKBRIDGE_EVENT.json"`, Logger: log})
	huge := strings.Repeat("é", 100_000) // 200 KB
	session := "sess\x00-" + huge
	round, _ := b.NextRound(session, 0)
	b.Open(permission.Request{SessionID: session, ToolCallID: "call_1", Round: round,
		Questions: []permission.Question{question("Which\x00 one? "+huge, "He\x00ad", "a", "b")}})

	doc := waitFile(t, filepath.Join(dir, "asked.json"), 3*time.Second)
	var ev Event
	require.NoError(t, json.Unmarshal(doc, &ev))
	assert.Equal(t, session, ev.Session, "stdin has the whole value")
	assert.Equal(t, "Which\x00 one? "+huge, ev.Questions[0].Question)

	env, err := os.ReadFile(filepath.Join(dir, "session"))
	require.NoError(t, err)
	assert.LessOrEqual(t, len(env), HookEnvMax)
	assert.True(t, strings.HasPrefix(string(env), "sess-éé"), "NULs dropped")
	assert.True(t, strings.HasSuffix(string(env), hookCut), "the cut is marked")
	title, err := os.ReadFile(filepath.Join(dir, "title"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(title), "Head: Which one? é"), string(title[:20]))
	assert.Zero(t, out.count("failed"), out.String())
}

// What a hook starts in the background ends when the hook exits, and when
// askbridge closes while the hook still runs.
func TestHookBackgroundChildEndsWithTheHook(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	n := start(t, b, Options{Hook: `sleep 600 & echo $! > "$OUT/$ASKBRIDGE_QUESTION_ID.child"
[ "$ASKBRIDGE_QUESTION_ID" = q1 ] && exit 0
exec sleep 60`})
	first := ask(b, "s", question("One?", "One", "a", "b"))
	child := pidIn(t, filepath.Join(dir, first.ID+".child"))
	eventually(t, 3*time.Second, "the child of a hook that exited is ended", func() bool { return !alive(child) })

	second := ask(b, "s", question("Two?", "Two", "a", "b"))
	child = pidIn(t, filepath.Join(dir, second.ID+".child"))
	time.Sleep(100 * time.Millisecond)
	require.True(t, alive(child), "the hook still runs, its child with it")
	n.Close()
	eventually(t, time.Second, "Close ends the child of a running hook", func() bool { return !alive(child) })
}

// pidIn reads the pid a hook wrote, and kills it when the test ends, so
// that a failing test leaves nothing behind.
func pidIn(t *testing.T, path string) int {
	t.Helper()
	pid, err := strconv.Atoi(strings.TrimSpace(string(waitFile(t, path, 3*time.Second))))
	require.NoError(t, err)
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// However many sets go up at once, at most HookRunning hooks run; the rest
// wait their turn, each set's events still in order.
func TestAtMostFourHooksRunAtOnce(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	log, out := newLogger()
	n := start(t, b, Options{Logger: log, Hook: `touch "$OUT/run.$$"; ls "$OUT" | grep -c '^run\.' >> "$OUT/counts"
sleep 0.05; rm "$OUT/run.$$"; echo "$ASKBRIDGE_EVENT" >> "$OUT/$ASKBRIDGE_QUESTION_ID.log"`})
	var ids []string
	for range 12 {
		tk := ask(b, "s", question("Q?", "H", "a", "b"))
		require.NoError(t, b.Withdraw(tk.ID, "session/cancel", permission.BySelf(permission.SourceClient)))
		ids = append(ids, tk.ID)
	}
	eventually(t, 10*time.Second, "all 24 events ran", func() bool {
		for _, id := range ids {
			if got, _ := os.ReadFile(filepath.Join(dir, id+".log")); strings.Count(string(got), "\n") < 2 {
				return false
			}
		}
		return true
	})
	counts, _ := os.ReadFile(filepath.Join(dir, "counts"))
	most := 0
	for _, c := range strings.Fields(string(counts)) {
		v, _ := strconv.Atoi(c)
		most = max(most, v)
	}
	t.Logf("at most %d hooks ran at once", most)
	assert.LessOrEqual(t, most, HookRunning)
	for _, id := range ids {
		got, _ := os.ReadFile(filepath.Join(dir, id+".log"))
		assert.Equal(t, "asked\ncancelled\n", string(got), id)
	}
	n.Close()
	assert.Zero(t, out.count("dropped"))
}

// Past HookQueued waiting events, a new set's asked event and every set's
// end still run: only what comes between (here a warning that a set
// expires soon) is merged or dropped, and counted in one log line once the
// queue has drained.
func TestHookQueueOverflowKeepsEverySetsAskedAndEnd(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	log, out := newLogger()
	release := filepath.Join(dir, "release")
	start(t, b, Options{Logger: log, Hook: `echo "$ASKBRIDGE_EVENT" >> "$OUT/ran"; while [ ! -e "` + release + `" ]; do sleep 0.02; done`})
	const extra = 10
	var late []*permission.Ticket
	for i := range HookRunning + HookQueued + extra {
		tk := ask(b, "s", question("Q?", "H", "a", "b"))
		if i >= HookRunning+HookQueued {
			late = append(late, tk)
		}
	}
	for _, tk := range late {
		b.Expiring(tk.ID) // the queue is full: dropped, counted
		require.NoError(t, b.Withdraw(tk.ID, "session/cancel", permission.BySelf(permission.SourceClient)))
	}
	require.NoError(t, os.WriteFile(release, nil, 0o600))
	eventually(t, 20*time.Second, "every set's asked and end ran", func() bool {
		ran, _ := os.ReadFile(filepath.Join(dir, "ran"))
		return strings.Count(string(ran), "asked\n") == HookRunning+HookQueued+extra && strings.Count(string(ran), "cancelled\n") == extra
	})
	eventually(t, 2*time.Second, "the count is told once", func() bool {
		return out.count("merged 0 and dropped "+strconv.Itoa(extra)+" events") == 1
	})
	ran, _ := os.ReadFile(filepath.Join(dir, "ran"))
	assert.NotContains(t, string(ran), "expiring")
}
