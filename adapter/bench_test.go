package adapter

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkRelayNotifications pushes ~1 KiB session/update notifications
// from the agent side to the client side through the relay, in process.
func BenchmarkRelayNotifications(b *testing.B) { benchNotifications(b, nil) }

func benchNotifications(b *testing.B, setup func(*Relay)) {
	msg := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`+"\n",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)))
	aInR, aInW := io.Pipe()
	cOutR, cOutW := io.Pipe()
	cInR, cInW := io.Pipe()
	r := NewRelay(RelayConfig{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: io.Discard})
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

// BenchmarkBridgeNotifications is BenchmarkRelayNotifications with the
// bridge and every dialect installed: what the hooks on session/update cost
// a message they do not want.
func BenchmarkBridgeNotifications(b *testing.B) {
	benchNotifications(b, func(r *Relay) { NewBridge(Options{}).Setup(r) })
}

// BenchmarkScan is the relay's per-line work on one ~1 KiB notification:
// finding its method and id, and checking it is one JSON value.
func BenchmarkScan(b *testing.B) {
	line := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess_0123456789","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":%q}}}}`,
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 20)))
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scan(line); err != nil {
			b.Fatal(err)
		}
	}
}
