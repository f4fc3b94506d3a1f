package hub

import (
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Hubs started at once on a crashed hub's socket: exactly one takes it
// over, and it is the one the socket reaches; the others are told a hub
// runs. Without the lock, each could remove the socket the one before had
// just made, and several would serve, all but one unreachable.
func TestHubsStartedAtOnceOnAStaleSocketLeaveOneServing(t *testing.T) {
	for round := range 20 {
		stale := socket(t)
		require.NoError(t, os.MkdirAll(filepath.Dir(stale), 0o700))
		ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
		require.NoError(t, err)
		ln.SetUnlinkOnClose(false)
		ln.Close()

		const hubs = 8
		var wg sync.WaitGroup
		got := make(chan *Listener, hubs)
		refused := make(chan error, hubs)
		start := make(chan struct{})
		for range hubs {
			wg.Go(func() {
				<-start
				l, err := Listen(stale)
				if err != nil {
					refused <- err
					return
				}
				got <- l
			})
		}
		close(start)
		wg.Wait()
		close(got)
		close(refused)
		var serving []*Listener
		for l := range got {
			serving = append(serving, l)
		}
		require.Len(t, serving, 1, "round %d: hubs serving at once", round)
		for err := range refused {
			assert.ErrorIs(t, err, ErrRunning)
		}
		c, err := net.Dial("unix", stale)
		require.NoError(t, err, "the socket reaches the hub that won")
		accepted, err := serving[0].Accept()
		require.NoError(t, err)
		accepted.Close()
		c.Close()
		serving[0].Close()
	}
}

// A hub that stops lets the next one in: the lock goes with it.
func TestTheLockGoesWithTheHub(t *testing.T) {
	path := socket(t)
	first, err := Listen(path)
	require.NoError(t, err)
	require.NoError(t, first.Close())
	second, err := Listen(path)
	require.NoError(t, err)
	second.Close()
}
