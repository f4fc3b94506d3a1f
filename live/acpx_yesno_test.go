//go:build live

package live

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/hub"
)

// guarded is askbridge as a user runs it: the guard against automatic
// answers on (--min-answer-time's default), unlike bridged, whose scripted
// clients answer at once on purpose.
// Its log is in the file guardedLog names.
var guarded = mode{"askbridge", func(t *testing.T) []string {
	return harness.Askbridge(askbridge(t), "--log-level=debug", "--hub=off", "--log-file="+guardedLog(t))
}}

// guardedLog is the log file of a guarded askbridge in test t.
func guardedLog(t *testing.T) string {
	logs.Lock()
	defer logs.Unlock()
	if logs.m == nil {
		logs.m = map[*testing.T]string{}
	}
	if _, ok := logs.m[t]; !ok {
		logs.m[t] = filepath.Join(t.TempDir(), "askbridge.log")
	}
	return logs.m[t]
}

var logs struct {
	sync.Mutex
	m map[*testing.T]string
}

// acpx asks "Allow <title>? (y/N)" and can only say yes or no, so askbridge
// (which knows acpx from its clientInfo) asks a walk of yes/no requests,
// each with its question and one option in the title. In a terminal, as a
// person uses it, with a real Qwen Code agent: the question is on the
// screen; n then y answers the single-select with its second option; y, n,
// y answers the multi-select with the first and third; each key is typed
// at a person's pace, after the prompt is shown.
func TestAcpxYesNoWalkInATerminal(t *testing.T) {
	m := model(t, harness.Qwen.Tool, twoQuestions)
	agent := strings.Join(append(guarded.wrap(t), harness.Qwen.Argv(harness.LiveDir())...), " ")
	tm := harness.Tmux(t, harness.Qwen, m.URL, []string{"acpx", "--agent", agent, "--format", "text", "--timeout", "120", "exec", "Ask me about the service."})
	keys := []struct{ shown, key string }{
		{"Which database should the service use? — Postgres - relational", "n"},
		{"Which database should the service use? — SQLite - embedded", "y"},
		{"Which languages should the service support? — Go - fast builds", "y"},
		{"Which languages should the service support? — Rust - no GC", "n"},
		{"Which languages should the service support? — Python - scripts", "y"},
	}
	for i, k := range keys {
		screen := tm.WaitFor("(y/N)", i+1, 90*time.Second)
		prompt := screen[strings.LastIndex(screen, "[permission]"):]
		require.Contains(t, prompt, k.shown, "the question and the option are on the screen")
		time.Sleep(600 * time.Millisecond) // reading it
		tm.Type(k.key, "Enter")
	}
	assert.Equal(t, "[command exited 0]", tm.Exited(90*time.Second))
	require.Len(t, m.ToolResults(), 1, "the terminal shows:\n%s", tm.Screen())
	assert.Equal(t, "User has provided the following answers:\n\n**Database**: SQLite\n**Languages**: Go, Python", m.ToolResults()[0])
}

// No to every option brings the last step, "Answer in your own words in
// the chat?": yes tells the model to ask in the chat.
func TestAcpxYesNoChatFallbackInATerminal(t *testing.T) {
	m := model(t, harness.Qwen.Tool, dbQuestion)
	agent := strings.Join(append(guarded.wrap(t), harness.Qwen.Argv(harness.LiveDir())...), " ")
	tm := harness.Tmux(t, harness.Qwen, m.URL, []string{"acpx", "--agent", agent, "--format", "text", "--timeout", "120", "exec", "Ask me about the service."})
	for i, key := range []string{"n", "n", "y"} {
		screen := tm.WaitFor("(y/N)", i+1, 90*time.Second)
		if i == 2 {
			require.Contains(t, screen[strings.LastIndex(screen, "[permission]"):], permission.ChatStep)
		}
		time.Sleep(600 * time.Millisecond)
		tm.Type(key, "Enter")
	}
	assert.Equal(t, "[command exited 0]", tm.Exited(90*time.Second))
	require.Len(t, m.ToolResults(), 1, "the terminal shows:\n%s", tm.Screen())
	assert.Equal(t, "User has provided the following answers:\n\n**Database**: "+permission.OtherWithoutText, m.ToolResults()[0])
}

// Piped, acpx cannot prompt and answers every permission request itself
// (reject, else cancel). With --questions desk the question never reaches
// it: it waits at the hub, is answered there, and the answer reaches the
// model.
func TestAcpxPipedQuestionsAnsweredAtTheHub(t *testing.T) {
	dir, err := os.MkdirTemp("", "abhub")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "askbridge", "hub.sock")
	ln, err := hub.Listen(sock)
	require.NoError(t, err)
	t.Setenv(hubkey.Env, hubkey.Format(ln.Key.Public())) // the askbridges, with HOMEs of their own, trust this hub
	board := permission.NewBoard()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan struct{})
	go func() { hub.New(board, nil).Serve(ctx, ln); close(served) }()
	t.Cleanup(func() { stop(); <-served })

	m := model(t, harness.Qwen.Tool, dbQuestion)
	agent := strings.Join(append(harness.Askbridge(askbridge(t), "--log-level=debug", "--questions=desk", "--hub="+sock), harness.Qwen.Argv(harness.LiveDir())...), " ")
	done := make(chan harness.Output, 1)
	go func() {
		done <- harness.Exec(t, harness.Qwen, m.URL, []string{filepath.Join(harness.LiveDir(), "node_modules/.bin/acpx"),
			"--agent", agent, "--format", "json", "--timeout", "120", "exec", "Ask me about the service."}, 0)
	}()
	var set permission.Pending
	require.Eventually(t, func() bool {
		list := board.List()
		if len(list) == 1 {
			set = list[0]
		}
		return len(list) == 1
	}, 90*time.Second, 100*time.Millisecond, "the question reaches the hub")
	require.Equal(t, "Which database should the service use?", set.Questions[0].Question)
	require.NoError(t, board.Settle(set.ID, permission.Result{Answers: []permission.Answered{{Question: set.Questions[0], Answer: permission.Answer{Labels: []string{"SQLite"}}, Path: "questions[0]"}}}, permission.ByEditor()))
	out := <-done
	require.NoError(t, out.Err, "acpx failed:\n%s", tail(out.Stderr, 4000))
	assert.NotContains(t, out.Stderr, "[permission]", "acpx was asked nothing")
	require.Len(t, m.ToolResults(), 1, "acpx stdout:\n%s", tail(out.Stdout, 4000))
	assert.Equal(t, "User has provided the following answers:\n\n**Database**: SQLite", m.ToolResults()[0])
}
