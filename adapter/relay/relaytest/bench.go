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
	stream(b, setup, fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`+"\n",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)), false)
}

// NotificationsToAgent is Notifications the other way: b.N ~1 KiB
// notifications of a method no hook wants, from the client side to the
// agent side.
func NotificationsToAgent(b *testing.B, setup func(*relay.Relay)) {
	stream(b, setup, fmt.Sprintf(`{"jsonrpc":"2.0","method":"_bench/data","params":{"sessionId":"sess_0123456789","data":{"kind":"bench_chunk","content":{"type":"text","text":%q}}}}`+"\n",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)), true)
}

// stream writes b.N copies of msg into one side of a relay and counts the
// lines that come out of the other.
func stream(b *testing.B, setup func(*relay.Relay), msg string, toAgent bool) {
	aInR, aInW := io.Pipe() // agent -> relay
	cInR, cInW := io.Pipe() // client -> relay
	outR, outW := io.Pipe() // the side counted
	cfg := relay.Config{ClientIn: cInR, ClientOut: outW, AgentIn: aInR, AgentOut: io.Discard}
	in, quiet := aInW, cInW
	if toAgent {
		cfg.ClientOut, cfg.AgentOut = io.Discard, outW
		in, quiet = cInW, aInW
	}
	r := relay.New(cfg)
	if setup != nil {
		setup(r)
	}
	r.Start()
	done := make(chan int)
	go func() {
		br := bufio.NewReaderSize(outR, 1<<20)
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
	w := bufio.NewWriterSize(in, 1<<20)
	for range b.N {
		w.WriteString(msg)
	}
	w.Flush()
	in.Close()
	if toAgent {
		<-r.ClientDone()
	} else {
		<-r.AgentDone()
	}
	outW.Close()
	got := <-done
	b.StopTimer()
	if got != b.N {
		b.Fatalf("%d of %d lines came through", got, b.N)
	}
	b.ReportMetric(float64(got)/b.Elapsed().Seconds(), "msgs/s")
	quiet.Close()
}
