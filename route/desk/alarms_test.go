package desk

import (
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/alarm"
)

// Wrong pairing codes are counted and logged once a second with the count
// (alarm.Note), whatever their number, and none goes uncounted. Failed
// before: each was a line of its own, with no count, and no summary.
func TestWrongCodesAreCountedOnALineASecond(t *testing.T) {
	log := &syncLog{}
	s, _ := newDesk(t, Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
	before := alarm.Total(alarm.WrongCode)
	const tries = 30
	for range tries {
		code, body := do(t, s, http.MethodPost, "/pair/begin", `{"code":"AAAA-BBBB-CCCC"}`, nil)
		require.Contains(t, []int{http.StatusForbidden, http.StatusTooManyRequests}, code, body)
	}
	assert.Equal(t, tries, alarm.Total(alarm.WrongCode)-before)
	var counts []int
	require.Eventually(t, func() bool {
		counts = lineCounts(log.String(), string(alarm.WrongCode))
		sum := 0
		for _, n := range counts {
			sum += n
		}
		return sum >= tries
	}, 3*time.Second, 20*time.Millisecond, "every wrong code counted in the log: %v\n%s", counts, log)
	assert.LessOrEqual(t, len(counts), 3, "a line a second, not one a code: %v", counts)
	assert.Contains(t, alarm.Summary(), string(alarm.WrongCode)+": ")
}

// lineCounts are the count= of each line of log that says what.
func lineCounts(log, what string) []int {
	var out []int
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, what) {
			continue
		}
		n := 0
		if m := regexp.MustCompile(` count=(\d+) `).FindStringSubmatch(line); m != nil {
			n, _ = strconv.Atoi(m[1])
		}
		out = append(out, n)
	}
	return out
}

// syncLog is a log written by one goroutine and read by another.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
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
