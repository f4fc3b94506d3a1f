package mcpask

import (
	"context"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/mcpask/mcphttptest"
)

// A host whose HTTP stream for a tool call is dropped (the connection
// closes) without notifications/cancelled has stopped waiting as surely as
// one that says so: askbridge is told, so the question stays answerable
// and its answer reaches the model later. (Before, on the 2025 protocol
// the call went on and its answer was written to a stream nobody read.)
func TestHTTPDroppedStreamTellsAskbridgeTheHostStoppedWaiting(t *testing.T) {
	asked := make(chan struct{}, 1)
	f := startFakeBridge(t, func(ctx context.Context, _ *jsonrpc2.Conn, _ askParams) (any, error) {
		asked <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	s := newHTTP(t, f.path)
	url, token, err := s.Add("tag-1")
	require.NoError(t, err)
	bound, cancelBound := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancelBound()
	host, err := mcphttptest.Open(bound, url, token)
	require.NoError(t, err)
	drop := host.CallAndDrop(bound, dbQuestion)
	select {
	case <-asked:
	case <-time.After(10 * time.Second):
		t.Fatal("never asked")
	}
	drop() // the connection closes; no notifications/cancelled is sent
	select {
	case <-f.gone:
	case <-time.After(5 * time.Second):
		t.Fatal("the call went on after its stream was dropped: an answer would be written to nobody")
	}
	assert.Len(t, f.stoppedWaiting(), 1)
}
