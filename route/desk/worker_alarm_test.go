package desk

import (
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/alarm"
)

// Each service worker the hub replaces because it did not serve it is
// counted (alarm.Worker, which askbridge hub's summary line reports) and
// logged at most once a second with the count, whatever their number.
// Failed before: each was a log line of its own, and none was counted.
func TestRefusedWorkersAreCountedOnALineASecond(t *testing.T) {
	log := &syncLog{}
	s, _ := newDesk(t, Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
	before := alarm.Total(alarm.Worker)
	const tries = 20
	for range tries {
		resp, _ := workerGet(t, s, "/evil-sw.js")
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	assert.Equal(t, tries, alarm.Total(alarm.Worker)-before)
	var counts []int
	require.Eventually(t, func() bool {
		counts = lineCounts(log.String(), string(alarm.Worker))
		sum := 0
		for _, n := range counts {
			sum += n
		}
		return sum >= tries
	}, 3*time.Second, 20*time.Millisecond, "every refused worker counted in the log: %v\n%s", counts, log)
	assert.LessOrEqual(t, len(counts), 3, "a line a second, not one a worker: %v", counts)
	assert.Contains(t, log.String(), "script=/evil-sw.js")
	assert.Contains(t, alarm.Summary(), string(alarm.Worker)+": ")
}
