//go:build browser

package desk

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/permission"
)

// TestBrowserCountsDownAndHolds runs the adapter with --question-timeout
// 15s, asks three sets and drives the page (e2e/deadline.mjs): each card
// counts down with its last minute marked; focusing an answer of one and
// typing in another hold them on the board (their deadlines move, one
// call each however much the user does); a hold made on the board reaches
// the page; the set left alone times out, the agent hears so, and the
// history says timeout; the held sets are answered after their timeout.
func TestBrowserCountsDownAndHolds(t *testing.T) {
	needBrowser(t)
	const timeout = 15 * time.Second // room for a loaded machine to hold One and Two before it
	b := newBridgedWith(t, adapter.Options{QuestionTimeout: timeout})
	code, _ := b.desk.Devices().NewCode()
	d := startDriver(t, "e2e/deadline.mjs", b.desk.URL(), code)

	d.await("READY")
	byHeader := askThree(t, b)
	d.await("READY FOR THE LONG HOLD")
	for _, h := range []string{"One", "Two"} {
		p, _ := b.board.Get(byHeader[h].ID)
		assert.Greater(t, p.Deadline.Sub(*byHeader[h].Deadline), 30*time.Second, "the page's hold moved %s's deadline on the board", h)
	}
	three, _ := b.board.Get(byHeader["Three"].ID)
	assert.True(t, three.Deadline.Equal(*byHeader["Three"].Deadline), "nobody touched Three")
	_, err := b.board.Hold(byHeader["Two"].ID, 2*time.Minute)
	require.NoError(t, err)
	checkThreeTimedOut(t, b)

	checkCountdown(t, d.finish(), byHeader, timeout)
}

// askThree has the agent ask three sets, One, Two and Three, each with a
// deadline: the board's sets by header.
func askThree(t *testing.T, b *bridged) map[string]permission.Pending {
	for i, h := range []string{"One", "Two", "Three"} {
		b.send(b.fromAgent, fmt.Sprintf(`{"jsonrpc":"2.0","id":"ask-%d","method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"%s?","header":"%s","options":[{"label":"A"},{"label":"B"}]}]}}`, i+1, h, h))
		b.expect(b.toClient, "session/request_permission")
	}
	sets := b.board.List()
	require.Len(t, sets, 3)
	byHeader := map[string]permission.Pending{}
	for _, p := range sets {
		require.NotNil(t, p.Deadline)
		byHeader[p.Questions[0].Header] = p
	}
	return byHeader
}

// checkThreeTimedOut: the agent hears Three timed out, then the page's
// answers to One and Two, held past their timeout.
func checkThreeTimedOut(t *testing.T, b *bridged) {
	var r struct {
		Result struct {
			Behavior, Message string
			UpdatedInput      struct{ Answers map[string]string }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(b.expect(b.toAgent, `"ask-3"`)), &r))
	assert.Equal(t, "deny", r.Result.Behavior)
	assert.Equal(t, permission.NoAnswerInTime, r.Result.Message)
	for _, tt := range []struct {
		id   string
		want map[string]string
	}{{"ask-1", map[string]string{"One?": "B"}}, {"ask-2", map[string]string{"Two?": "A"}}} { // the order the page answers
		r.Result.UpdatedInput.Answers = nil
		require.NoError(t, json.Unmarshal([]byte(b.expect(b.toAgent, `"`+tt.id+`"`)), &r))
		assert.Equal(t, "allow", r.Result.Behavior, tt.id)
		assert.Equal(t, tt.want, r.Result.UpdatedInput.Answers, tt.id)
	}
}

// checkCountdown checks what the driver saw of the countdowns and holds.
func checkCountdown(t *testing.T, text string, byHeader map[string]permission.Pending, timeout time.Duration) {
	first, second := secondsLeft(t, text, "COUNTDOWN1"), secondsLeft(t, text, "COUNTDOWN2")
	assert.True(t, first > 0 && first <= int(timeout.Seconds()), "the countdown starts at the timeout: %d", first)
	assert.Less(t, second, first, "the countdown counts down")
	assert.Contains(t, text, "EXPIRING true\n", "the last minute is marked")
	assert.GreaterOrEqual(t, secondsLeft(t, text, "HELD ONE"), 50, "focusing an answer holds the set")
	assert.GreaterOrEqual(t, secondsLeft(t, text, "HELD TWO"), 50, "typing holds the set")
	calls, _ := json.Marshal(map[string]int{byHeader["One"].ID: 1, byHeader["Two"].ID: 1})
	assert.Contains(t, text, "HOLD CALLS "+string(calls)+"\n", "one hold call per set within 10 s")
	assert.GreaterOrEqual(t, secondsLeft(t, text, "LONG HOLD"), 100, "a hold on the board reaches the page")
	assert.Contains(t, text, "EXPIRING false\n", "a set with more than a minute left is not marked")
	assert.Regexp(t, `HISTORY .*\(timeout\) Three`, text)
	assert.Contains(t, text, "“Three” times out soon", "question.expiring reaches the page")
	assert.Contains(t, text, "“Three” timed out; the agent went on without an answer.")
	assert.Contains(t, text, "DONE")
}

var leftRe = regexp.MustCompile(`within (\d+):(\d\d)`)

// secondsLeft reads the countdown the driver printed after prefix.
func secondsLeft(t *testing.T, text, prefix string) int {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix+" "); ok {
			m := leftRe.FindStringSubmatch(rest)
			require.NotNil(t, m, "%s: no countdown in %q", prefix, rest)
			min, _ := strconv.Atoi(m[1])
			sec, _ := strconv.Atoi(m[2])
			return min*60 + sec
		}
	}
	t.Fatalf("the driver never printed %s", prefix)
	return 0
}
