package alarm

import (
	"bytes"
	"log/slog"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// counts are the count= of each line logged.
func (b *buffer) counts() []int {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []int
	for _, m := range regexp.MustCompile(` count=(\d+) `).FindAllStringSubmatch(b.b.String(), -1) {
		n, _ := strconv.Atoi(m[1])
		out = append(out, n)
	}
	return out
}

// A flood of refusals writes one line a second, each with the count
// since the last, and none is lost: the last ones are logged when their
// second is up, not at the next refusal, which may never come.
func TestAFloodIsOneLineASecondWithItsCount(t *testing.T) {
	var c Counter
	log := &buffer{}
	logger := slog.New(slog.NewTextHandler(log, nil))
	start := time.Now()
	for time.Since(start) < 2500*time.Millisecond {
		c.Note(logger, WrongCode, "from", "127.0.0.1:1")
		time.Sleep(time.Millisecond)
	}
	total := c.Total(WrongCode)
	require.Eventually(t, func() bool {
		sum := 0
		for _, n := range log.counts() {
			sum += n
		}
		return sum == total
	}, 3*time.Second, 10*time.Millisecond, "every refusal is counted in a line: %v of %d", log.counts(), total)
	lines := log.counts()
	// One line a second: the first at once, one for each whole second
	// since, and the last one's. Counted on the clock, not assumed: on a
	// loaded machine the loop and the flush run late.
	most := int(time.Since(start)/time.Second) + 2
	assert.LessOrEqual(t, len(lines), most, "one line a second (%v and the last one's): %v", time.Since(start).Round(time.Millisecond), lines)
	assert.Equal(t, 1, lines[0], "the first is logged at once")
	assert.Greater(t, total, 500)
	assert.Equal(t, "pairing codes refused: "+strconv.Itoa(total), c.Summary())
}

// Kinds are counted apart: one's flood does not hold another's line.
func TestKindsAreCountedApart(t *testing.T) {
	var c Counter
	log := &buffer{}
	logger := slog.New(slog.NewTextHandler(log, nil))
	assert.Empty(t, c.Summary(), "nothing refused: no summary")
	c.Note(logger, WrongCode)
	c.Note(logger, OtherUser)
	c.Note(logger, OtherUser)
	assert.Equal(t, []int{1, 1}, log.counts(), "each kind's first at once")
	assert.Equal(t, "loopback connections of another user refused: 2, pairing codes refused: 1", c.Summary())
	require.Eventually(t, func() bool { return len(log.counts()) == 3 }, 2*time.Second, 10*time.Millisecond)
}
