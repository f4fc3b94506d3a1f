package relay_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter/relay"
)

// A hook may keep the agent's Raw without a copy until BeforeAgentRead:
// the lines copied there are the lines sent, whatever the reads' sizes,
// lines longer than the reader's buffer among them.
func TestRawIsKeptUntilTheAgentSideReadsOn(t *testing.T) {
	aInR, aInW := io.Pipe()
	cInR, cInW := io.Pipe()
	r := relay.New(relay.Config{ClientIn: cInR, ClientOut: io.Discard, AgentIn: aInR, AgentOut: io.Discard})
	var lent, kept [][]byte
	r.FromAgentUpdates(func(m *relay.Message) relay.Verdict {
		lent = append(lent, m.Raw) // no copy
		return relay.Pass
	}, "agent_message_chunk")
	r.BeforeAgentRead(func() {
		for _, l := range lent {
			kept = append(kept, bytes.Clone(l))
		}
		lent = lent[:0]
	})
	r.Start()
	defer cInW.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	var sent []string
	var all bytes.Buffer
	for i := range 400 {
		text := strings.Repeat(fmt.Sprint(i%10), rng.IntN(3000))
		if i%97 == 0 {
			text = strings.Repeat("L", 70<<10) // longer than the reader's buffer
		}
		line := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + text + `"}}}}`
		sent = append(sent, line)
		all.WriteString(line + "\n")
	}
	go func() {
		b := all.Bytes()
		for len(b) > 0 {
			n := min(len(b), 1+rng.IntN(20000))
			aInW.Write(b[:n])
			b = b[n:]
		}
		aInW.Close()
	}()
	select {
	case <-r.AgentDone():
	case <-time.After(10 * time.Second):
		t.Fatal("the relay did not finish")
	}
	for _, l := range lent { // no read after the last lines
		kept = append(kept, bytes.Clone(l))
	}
	got := make([]string, len(kept))
	for i, k := range kept {
		got[i] = string(k)
	}
	assert.Equal(t, sent, got)
}
