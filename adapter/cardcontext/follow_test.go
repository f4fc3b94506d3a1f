package cardcontext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter/relay"
)

// A secret cut by a ring's edge is hidden too: a ring keeps whole chunks,
// so its oldest may begin inside one, and the newest end inside one.
func TestHideSecretsCutsASecretAtTheEdges(t *testing.T) {
	key := "sk-live-4f9a8b7c6d5e4f3a2b1c"
	assert.Equal(t, "(secret) and more", hideSecrets(key[12:]+" and more", []string{key}), "a ring starting inside a secret")
	assert.Equal(t, "it is (secret)", hideSecrets("it is "+key[:8], []string{key}))
}

// BenchmarkContextHook is what the hook costs one ~1 KiB chunk, the
// relay's benchmark line: a byte search and a copy into the ring.
func BenchmarkContextHook(b *testing.B) {
	var c Sessions
	m := &relay.Message{Raw: []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` +
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20) + `"}}}}`)}
	b.SetBytes(int64(len(m.Raw)))
	b.ReportAllocs()
	for b.Loop() {
		c.onUpdate(m)
	}
}
