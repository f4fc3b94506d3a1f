package hub

import (
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A hub that takes connections but never reads (stopped, or stuck) costs
// the askbridge nothing: its board goes on at full speed, the connection is
// dropped once the queue is full, and a new one is made.
func TestAHubThatDoesNotReadIsDroppedNotWaitedFor(t *testing.T) {
	path := socket(t)
	ln, err := Listen(path)
	require.NoError(t, err)
	defer ln.Close()
	var conns atomic.Int32
	var mu sync.Mutex
	var held []net.Conn
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	}()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // never read
			mu.Unlock()
			conns.Add(1)
		}
	}()
	b, _ := report(t, path, "/src")
	require.Eventually(t, func() bool { return conns.Load() == 1 }, 5*time.Second, 10*time.Millisecond)

	long := strings.Repeat("x", 4000)
	// An Open that waited on the hub's socket would wait for the write
	// deadline, writeTimeout; the slowest Open is measured, not the whole
	// loop, so a busy machine's slower loop does not count as waiting.
	var slowest time.Duration
	for i := range 2000 {
		start := time.Now()
		b.Open(permission.Request{SessionID: "s", Round: i + 1, Questions: []permission.Question{
			{Question: long + string(rune('a'+i%26)), Header: "H", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}})
		slowest = max(slowest, time.Since(start))
	}
	assert.Less(t, slowest, writeTimeout, "asking never waits on the hub")
	// The link's writer gives up after writeTimeout, the reporter dials
	// again after Retry: 3 s, and more on a busy machine.
	require.Eventually(t, func() bool { return conns.Load() >= 2 }, 30*time.Second, 20*time.Millisecond, "the askbridge drops the stuck connection and makes a new one")
}
