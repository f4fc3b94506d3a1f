package relaytest

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
)

// Notifications pushes b.N ~1 KiB session/update notifications from the
// agent side to the client side through a relay, in process, after setup
// installs its interceptors, and reports msgs/s.
func Notifications(b *testing.B, setup func(*relay.Relay)) {
	msg := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`+"\n",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)))
	aInR, aInW := io.Pipe()
	cOutR, cOutW := io.Pipe()
	cInR, cInW := io.Pipe()
	r := relay.New(relay.Config{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: io.Discard})
	if setup != nil {
		setup(r)
	}
	r.Start()
	done := make(chan int)
	go func() {
		br := bufio.NewReaderSize(cOutR, 1<<20)
		n := 0
		for {
			if _, err := br.ReadSlice('\n'); err != nil {
				done <- n
				return
			}
			n++
		}
	}()
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	b.ResetTimer()
	w := bufio.NewWriterSize(aInW, 1<<20)
	for range b.N {
		w.Write(msg)
	}
	w.Flush()
	aInW.Close()
	<-r.AgentDone()
	cOutW.Close()
	got := <-done
	b.StopTimer()
	b.ReportMetric(float64(got)/b.Elapsed().Seconds(), "msgs/s")
	cInW.Close()
}
