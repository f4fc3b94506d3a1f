package conformance

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// askbridge's own request ids are random per run; fixtures number them.
func TestOwnIDsTranslateBetweenRunAndFixture(t *testing.T) {
	var o ownIDs
	assert.Equal(t, `{"id":"askbridge-1"}`, string(o.toWire([]byte(`{"id":"askbridge-1"}`))), "nothing learnt yet")
	got := o.fromWire([]byte(`{"id":"askbridge-0123456789abcdef-12","params":{"toolCall":{"toolCallId":"askbridge-fedcba9876543210"}}}`))
	assert.Equal(t, `{"id":"askbridge-12","params":{"toolCall":{"toolCallId":"askbridge-fedcba9876543210"}}}`, string(got))
	assert.Equal(t, `{"id":"askbridge-0123456789abcdef-12","result":{}}`, string(o.toWire([]byte(`{"id":"askbridge-12","result":{}}`))))

	f, err := FromRecording("rec", []byte(`{"dir":"c2a","t":1,"msg":{"jsonrpc":"2.0","id":"askbridge-0123456789abcdef-3","result":{}}}`+"\n"))
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":"askbridge-3","result":{}}`, string(f.Client[0]))
}
