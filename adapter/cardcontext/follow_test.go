package cardcontext

import (
	"bytes"
	"fmt"
	"strconv"
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
// relay's benchmark line: a byte search, and the copy into the ring of
// the lines still there when the relay reads on.
func BenchmarkContextHook(b *testing.B) {
	var c Sessions
	m := &relay.Message{Raw: []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` +
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20) + `"}}}}`)}
	b.SetBytes(int64(len(m.Raw)))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		c.onUpdate(m)
		if n++; n%60 == 0 { // the relay reads on: about 64 KiB of such lines
			c.keep()
		}
	}
}

// A chunk line is lent until the relay reads on: keep copies the lines
// still in the ring, so the buffer they were in may change after.
func TestKeepCopiesTheLentLines(t *testing.T) {
	var c Sessions
	line := func(text string) []byte {
		return []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"a","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}}`)
	}
	buf := append(line("one "), line("two!")...)
	first, second := buf[:len(buf)/2], buf[len(buf)/2:]
	c.onUpdate(&relay.Message{Raw: first})
	c.onUpdate(&relay.Message{Raw: second})
	assert.Equal(t, "one two!", c.Of("a", "").Words, "lent, read where they are")
	c.keep()
	copy(buf, bytes.Repeat([]byte("x"), len(buf))) // the relay reads on
	assert.Equal(t, "one two!", c.Of("a", "").Words)
	// Lines dropped before keep are never copied; the ring stays bounded.
	for i := range 3 * ringLines {
		c.onUpdate(&relay.Message{Raw: line(strconv.Itoa(i % 10))})
		if i%100 == 0 {
			c.keep()
		}
	}
	c.keep()
	w := c.by["a"]
	assert.Equal(t, 0, w.lent)
	assert.LessOrEqual(t, len(w.free), ringLines)
	last := ""
	for i := 3*ringLines - 3; i < 3*ringLines; i++ {
		last += strconv.Itoa(i % 10)
	}
	assert.True(t, strings.HasSuffix(c.Of("a", "").Words, last))
}
