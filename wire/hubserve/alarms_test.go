package hubserve

import (
	"bytes"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/internal/alarm"
)

// The hub ends with one line of what it refused, on its terminal and in
// its log, and with none when it refused nothing.
func TestTheHubSaysWhatItRefusedAtTheEnd(t *testing.T) {
	var stderr bytes.Buffer
	log := &lockedLog{}
	logger := slog.New(slog.NewTextHandler(log, nil))
	sayAlarms(&stderr, logger)
	assert.Empty(t, stderr.String(), "nothing refused, nothing said")
	for range 3 {
		alarm.Note(logger, alarm.WrongCode)
	}
	alarm.Note(logger, alarm.OtherUser)
	sayAlarms(&stderr, logger)
	assert.Equal(t, "askbridge: hub: refused while it ran: loopback connections of another user refused: 1, pairing codes refused: 3\n", stderr.String())
	assert.Contains(t, log.String(), "hub: refused while it ran")
}

// lockedLog is a log the alarm's timer writes while the test reads it.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
