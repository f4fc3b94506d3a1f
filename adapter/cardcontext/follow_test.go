package cardcontext

import (
	"fmt"
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

// Chunks of sessions that take turns, and of more sessions than are
// followed, each go to their own session's words: the session the last
// chunk was of is kept at hand, never for another, nor once forgotten.
func TestChunksGoToTheirOwnSession(t *testing.T) {
	var c Sessions
	chunk := func(s, text string) {
		c.onUpdate(&relay.Message{Raw: []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"` + s + `","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}}`)})
	}
	chunk("a", "one ")
	chunk("b", "two ")
	chunk("a", "three")
	chunk("b", "four")
	assert.Equal(t, "one three", c.Of("a", "").Words)
	assert.Equal(t, "two four", c.Of("b", "").Words)
	for i := range maxSessions {
		chunk(fmt.Sprint("s", i), "x")
	}
	assert.Nil(t, c.Of("a", ""), "the first session followed is forgotten first")
	chunk("a", "again")
	assert.Equal(t, "again", c.Of("a", "").Words)
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
