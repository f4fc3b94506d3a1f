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

// The hook reads one JSON document per event, the question within a second
// of its asking, and where the answer came from once answered.
func TestHookGetsTheQuestionWithinASecond(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	start(t, b, Options{Hook: `cat > "$OUT/$ASKBRIDGE_QUESTION_ID.$ASKBRIDGE_EVENT.json"`, DeskURL: deskURL})

	asked := time.Now()
	tk := ask(b, "sess-1", question("Which database?", "Database", "Postgres", "SQLite"))
	doc := waitFile(t, filepath.Join(dir, tk.ID+".asked.json"), time.Second)
	t.Logf("the hook had the question %s after it was asked", time.Since(asked).Round(time.Millisecond))
	var ev Event
	require.NoError(t, json.Unmarshal(doc, &ev))
	assert.Equal(t, Asked, ev.Event)
	assert.Equal(t, tk.ID, ev.ID)
	assert.Equal(t, "sess-1", ev.Session)
	assert.Equal(t, 1, ev.Round)
	assert.Equal(t, "call_1", ev.ToolCallID)
	assert.Equal(t, deskPage, ev.DeskURL, "the page, never its credential")
	require.Len(t, ev.Questions, 1)
	assert.Equal(t, "Which database?", ev.Questions[0].Question)
	assert.Equal(t, "Database", ev.Questions[0].Header)
	assert.Equal(t, "SQLite", ev.Questions[0].Options[1].Label)
	assert.Empty(t, ev.Source)
	assert.Contains(t, string(doc), `"options":[{"label":"Postgres","description":"about Postgres"}`, "the questions as the contract spells them")

	q := ev.Questions[0]
	require.NoError(t, b.Settle(tk.ID, permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{
		{Question: q, Answer: permission.Answer{Labels: []string{"Postgres"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	var done Event
	require.NoError(t, json.Unmarshal(waitFile(t, filepath.Join(dir, tk.ID+".answered.json"), time.Second), &done))
	assert.Equal(t, Answered, done.Event)
	assert.Equal(t, permission.SourceDesk, done.Source)
	assert.Equal(t, []Answer{{Question: "Which database?", Header: "Database", Path: "questions[0]", Answer: "Postgres", Labels: []string{"Postgres"}}}, done.Answers)
	assert.False(t, done.Time.Before(ev.Time))
}

// A hook that sleeps delays neither the question nor its answer: the board
// resolves at once while the hooks still run, and Close ends them.
func TestSlowHookDelaysNothing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	n, err := Start(b, Options{Hook: `echo $$ > "$OUT/$ASKBRIDGE_QUESTION_ID.$ASKBRIDGE_EVENT.pid"; exec sleep 10`})
	require.NoError(t, err)
	defer n.Close()

	var pids []int
	for range 3 {
		begin := time.Now()
		tk := ask(b, "s", question("Q?", "H", "a", "b"))
		require.NoError(t, b.Settle(tk.ID, permission.Result{}, permission.ByEditor()))
		select {
		case <-tk.Done():
		case <-time.After(time.Second):
			t.Fatal("the answer waited for the hook")
		}
		// The hook sleeps 10 s and Close grants closeGrace: waiting on it
		// would take seconds; a busy machine takes at most a few hundred ms.
		assert.Less(t, time.Since(begin), closeGrace/2, "asking and answering with a sleeping hook")
		pid, err := strconv.Atoi(strings.TrimSpace(string(waitFile(t, filepath.Join(dir, tk.ID+".asked.pid"), time.Second))))
		require.NoError(t, err)
		pids = append(pids, pid)
	}
	for _, pid := range pids {
		assert.True(t, alive(pid), "the hook is still running, not waited on")
	}
	closing := time.Now()
	n.Close()
	assert.Less(t, time.Since(closing), closeGrace+2*time.Second, "Close is bounded")
	for _, pid := range pids {
		assert.False(t, alive(pid), "Close stopped the hook %d", pid)
	}
}

// A hook that outlives its timeout is killed with everything it started.
func TestHangingHookIsKilledWithItsGroup(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Hook: `sleep 30 & echo $! > "$OUT/child"; wait`, Timeout: 300 * time.Millisecond, Logger: log})
	ask(b, "s", question("Q?", "H", "a", "b"))
	child, err := strconv.Atoi(strings.TrimSpace(string(waitFile(t, filepath.Join(dir, "child"), time.Second))))
	require.NoError(t, err)
	eventually(t, 3*time.Second, "the hook's child is killed", func() bool { return !alive(child) })
	eventually(t, time.Second, "the timeout is logged", func() bool { return out.count("on-question hook timed out") == 1 })
}

// A failing hook is logged with its stderr and changes nothing else: the
// board resolves as usual and the other consumers get every event.
func TestFailingHookChangesNothingElse(t *testing.T) {
	posts := make(chan string, 10)
	srv := webhookServer(t, func(r received) { posts <- r.header.Get("X-Askbridge-Event") })
	b := permission.NewBoard()
	log, out := newLogger()
	start(t, b, Options{Hook: `echo boom >&2; exit 3`, URL: srv.URL + "/topic", Logger: log})
	tk := ask(b, "s", question("Q?", "H", "a", "b"))
	require.NoError(t, b.Settle(tk.ID, permission.Result{Answers: []permission.Answered{{Answer: permission.Answer{Labels: []string{"a"}}}}}, permission.ByEditor()))
	assert.Equal(t, []string{"a"}, tk.Result().Answers[0].Answer.Labels)
	assert.Equal(t, Asked, recv(t, posts))
	assert.Equal(t, Answered, recv(t, posts))
	eventually(t, 2*time.Second, "both failures are logged", func() bool { return out.count("on-question hook failed") == 2 })
	assert.Contains(t, out.String(), "exit status 3")
	assert.Contains(t, out.String(), "stderr: boom")
}

// A set's events reach the hook in order, while another set does not wait
// for a slow hook of the first.
func TestHookRunsASetsEventsInOrder(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	b := permission.NewBoard()
	start(t, b, Options{Hook: `if [ "$ASKBRIDGE_EVENT" = asked ] && [ "$ASKBRIDGE_QUESTION_ID" = q1 ]; then sleep 2; fi
echo "$ASKBRIDGE_EVENT" >> "$OUT/$ASKBRIDGE_QUESTION_ID.log"`})
	first := ask(b, "s", question("One?", "One", "a", "b"))
	require.Equal(t, "q1", first.ID)
	require.NoError(t, b.Withdraw(first.ID, "session/cancel", permission.BySelf(permission.SourceClient)))
	second := ask(b, "s", question("Two?", "Two", "a", "b"))
	require.NoError(t, b.Withdraw(second.ID, permission.ReasonTimeout, permission.BySelf(permission.SourceTimeout)))

	eventually(t, 1500*time.Millisecond, "the second set's events, in order, while the first's hook sleeps", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, second.ID+".log"))
		return string(b) == "asked\ntimeout\n"
	})
	_, err := os.Stat(filepath.Join(dir, first.ID+".log"))
	assert.True(t, os.IsNotExist(err), "the first set's hooks are still on its asked event")
	eventually(t, 5*time.Second, "the first set's events, in order", func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, first.ID+".log"))
		return string(b) == "asked\ncancelled\n"
	})
}

// alive reports whether pid runs; a zombie waiting for a reaper is dead.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return true // no /proc: trust kill
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !os.IsNotExist(err)
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) == 0 || f[0] != "Z"
}
