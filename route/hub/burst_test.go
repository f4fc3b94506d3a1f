package hub

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/notify"
)

// A burst of 200 sets at once on an askbridge with a hook, a webhook and a
// hub: every set's asked and final events reach the hook and the webhook,
// the hub lists all 200, and none is pending there once all are answered
// (half at the askbridge, half at the hub). Board watchers with a bounded
// buffer lost a third of the events here, and left the hub listing
// answered sets as pending.
func TestBurstOfSetsReachesHookWebhookAndHub(t *testing.T) {
	const sets = 200
	path := socket(t)
	_, hubBoard, _ := startHub(t, path)
	board, _ := report(t, path, "/src/burst")
	hooked, posted := notifyBoth(t, board)

	tickets := make([]*permission.Ticket, sets)
	var wg sync.WaitGroup
	for i := range sets {
		wg.Go(func() { tickets[i] = ask(board, "s", "Burst?") })
	}
	wg.Wait()
	answerHalfAtEach(t, board, hubBoard, tickets)

	want := func(events map[string][]string) bool {
		if len(events) != sets {
			return false
		}
		for _, tk := range tickets {
			if got := events[tk.ID]; len(got) != 2 || got[0] != notify.Asked || got[1] != notify.Answered {
				return false
			}
		}
		return true
	}
	require.Eventually(t, func() bool { return want(hooked()) }, 30*time.Second, 50*time.Millisecond, "the hook ran for every set's asked and answered, in order")
	require.Eventually(t, func() bool { return want(posted()) }, 30*time.Second, 50*time.Millisecond, "the webhook got every set's asked and answered, in order")
}

// notifyBoth starts a hook and a webhook on board: what each got so far,
// events by set, in order.
func notifyBoth(t *testing.T, board *permission.Board) (hooked, posted func() map[string][]string) {
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	var mu sync.Mutex
	posts := map[string][]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev notify.Event
		if assert.NoError(t, json.Unmarshal(body, &ev)) {
			mu.Lock()
			posts[ev.ID] = append(posts[ev.ID], ev.Event)
			mu.Unlock()
		}
	}))
	t.Cleanup(srv.Close)
	n, err := notify.Start(board, notify.Options{Hook: `echo "$ASKBRIDGE_QUESTION_ID $ASKBRIDGE_EVENT" >> "$OUT/hook"`, URL: srv.URL + "/events#json"})
	require.NoError(t, err)
	t.Cleanup(n.Close)
	hooked = func() map[string][]string {
		b, _ := os.ReadFile(filepath.Join(dir, "hook"))
		events := map[string][]string{}
		for line := range strings.Lines(string(b)) {
			id, ev, _ := strings.Cut(strings.TrimSpace(line), " ")
			events[id] = append(events[id], ev)
		}
		return events
	}
	posted = func() map[string][]string {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(posts)
	}
	return hooked, posted
}

// answerHalfAtEach answers every other set the hub lists at the hub, the
// rest at the askbridge (its editor), and checks that none stays pending
// on either.
func answerHalfAtEach(t *testing.T, board, hubBoard *permission.Board, tickets []*permission.Ticket) {
	sets := len(tickets)
	var listed []string
	require.Eventually(t, func() bool { return len(hubBoard.List()) == sets }, 20*time.Second, 20*time.Millisecond, "the hub lists all %d", sets)
	for i, p := range hubBoard.List() {
		listed = append(listed, p.ID)
		if i%2 == 0 { // answered at the hub
			require.NoError(t, hubBoard.Settle(p.ID, permission.Result{Answers: []permission.Answered{{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"a"}}, Path: "questions[0]"}}}, permission.ByEditor()))
		}
	}
	for _, tk := range tickets { // the rest at the askbridge (its editor)
		board.Settle(tk.ID, permission.Result{Answers: []permission.Answered{{Answer: permission.Answer{Labels: []string{"b"}}, Path: "questions[0]"}}}, permission.ByEditor())
	}
	for _, tk := range tickets {
		select {
		case <-tk.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("a set was never settled at the askbridge")
		}
	}
	require.Eventually(t, func() bool { return len(hubBoard.List()) == 0 }, 20*time.Second, 20*time.Millisecond, "nothing stays pending on the hub")
	answered := 0
	for _, id := range listed {
		p, _ := hubBoard.Get(id)
		assert.NotEqual(t, permission.StatePending, p.State, id)
		if p.State == permission.StateAnswered {
			answered++
		}
	}
	// A link dropped on a starved machine (its writer gives up after
	// writeTimeout) ends the sets the hub had as "the askbridge left";
	// none stays pending.
	t.Logf("%d of %d sets the hub listed show as answered there", answered, sets)
}
