package adapter

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pipeEnd is one side's view of the relay: it writes lines in and reads
// lines out, with a deadline on every read.
type pipeEnd struct {
	t  *testing.T
	w  io.WriteCloser
	in chan []byte
}

func newPipeEnd(t *testing.T, r io.Reader, w io.WriteCloser) *pipeEnd {
	p := &pipeEnd{t: t, w: w, in: make(chan []byte, 1024)}
	go func() {
		lr := newLineReader(r)
		for {
			line, err := lr.next()
			if err != nil {
				close(p.in)
				return
			}
			p.in <- bytes.Clone(line)
		}
	}()
	return p
}

func (p *pipeEnd) send(line string) {
	p.t.Helper()
	_, err := io.WriteString(p.w, line+"\n")
	require.NoError(p.t, err)
}

func (p *pipeEnd) recv() string {
	p.t.Helper()
	return p.recvWithin(5 * time.Second)
}

func (p *pipeEnd) recvWithin(d time.Duration) string {
	p.t.Helper()
	select {
	case line, ok := <-p.in:
		require.True(p.t, ok, "stream closed")
		return string(line)
	case <-time.After(d):
		p.t.Fatal("timed out waiting for a line")
		return ""
	}
}

// relayHarness wires a relay to a fake client and a fake agent.
type relayHarness struct {
	relay  *Relay
	client *pipeEnd // what the client sends and receives
	agent  *pipeEnd // what the agent sends and receives
	rec    *syncBuffer
}

func newHarness(t *testing.T, setup func(*Relay)) *relayHarness {
	return newHarnessConfig(t, RelayConfig{}, setup)
}

// newHarnessConfig is newHarness with the options of cfg; the harness sets
// its streams and recording.
func newHarnessConfig(t *testing.T, cfg RelayConfig, setup func(*Relay)) *relayHarness {
	cInR, cInW := io.Pipe()   // client -> relay
	cOutR, cOutW := io.Pipe() // relay -> client
	aInR, aInW := io.Pipe()   // agent -> relay
	aOutR, aOutW := io.Pipe() // relay -> agent
	rec := &syncBuffer{}
	cfg.ClientIn, cfg.ClientOut, cfg.AgentIn, cfg.AgentOut, cfg.Record = cInR, cOutW, aInR, aOutW, rec
	r := NewRelay(cfg)
	if setup != nil {
		setup(r)
	}
	r.Start()
	h := &relayHarness{relay: r, client: newPipeEnd(t, cOutR, cInW), agent: newPipeEnd(t, aOutR, aInW), rec: rec}
	t.Cleanup(func() {
		cInW.Close()
		aInW.Close()
		<-r.ClientDone()
		<-r.AgentDone()
		cOutW.Close()
		aOutW.Close()
	})
	return h
}
