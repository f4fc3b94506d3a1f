// Package relaytest wires a relay to a scripted client and agent on pipes,
// for the tests of the relay and of what is built on it.
package relaytest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/stretchr/testify/require"
)

// End is one side's view of the relay: it writes lines in and reads lines
// out, with a deadline on every read.
type End struct {
	t  *testing.T
	w  io.WriteCloser
	in chan []byte
}

// NewEnd reads lines from r and writes to w.
func NewEnd(t *testing.T, r io.Reader, w io.WriteCloser) *End {
	e := &End{t: t, w: w, in: make(chan []byte, 1024)}
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if err != nil {
				close(e.in)
				return
			}
			e.in <- bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		}
	}()
	return e
}

// Send writes line and a newline.
func (e *End) Send(line string) {
	e.t.Helper()
	_, err := io.WriteString(e.w, line+"\n")
	require.NoError(e.t, err)
}

// Recv is the next line, failing the test after 5s.
func (e *End) Recv() string {
	e.t.Helper()
	return e.RecvWithin(5 * time.Second)
}

// RecvWithin is the next line, failing the test after d.
func (e *End) RecvWithin(d time.Duration) string {
	e.t.Helper()
	select {
	case line, ok := <-e.in:
		require.True(e.t, ok, "stream closed")
		return string(line)
	case <-time.After(d):
		e.t.Fatal("timed out waiting for a line")
		return ""
	}
}

// Harness is a relay between a scripted client and a scripted agent.
type Harness struct {
	Relay  *relay.Relay
	Client *End // what the client sends and receives
	Agent  *End // what the agent sends and receives
	Rec    *Buffer
}

// New starts a relay with the options of cfg (the harness sets its streams
// and recording), after setup installs its interceptors; the test's
// cleanup closes both inputs and waits for both loops.
func New(t *testing.T, cfg relay.Config, setup func(*relay.Relay)) *Harness {
	cInR, cInW := io.Pipe()   // client -> relay
	cOutR, cOutW := io.Pipe() // relay -> client
	aInR, aInW := io.Pipe()   // agent -> relay
	aOutR, aOutW := io.Pipe() // relay -> agent
	rec := &Buffer{}
	cfg.ClientIn, cfg.ClientOut, cfg.AgentIn, cfg.AgentOut, cfg.Record = cInR, cOutW, aInR, aOutW, rec
	r := relay.New(cfg)
	if setup != nil {
		setup(r)
	}
	r.Start()
	h := &Harness{Relay: r, Client: NewEnd(t, cOutR, cInW), Agent: NewEnd(t, aOutR, aInW), Rec: rec}
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

// Buffer is a bytes.Buffer safe for concurrent use.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Close ends what this side sends: the relay reads EOF from it.
func (e *End) Close() error { return e.w.Close() }

// Msg is a decoded JSON-RPC message.
type Msg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *relay.Error    `json:"error"`
}

// Decode reads one line as a Msg, failing the test when it is not JSON.
func Decode(t *testing.T, line string) Msg {
	t.Helper()
	var m Msg
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	return m
}

// TryRecv is the next line if one comes within d.
func (e *End) TryRecv(d time.Duration) (string, bool) {
	select {
	case line, ok := <-e.in:
		return string(line), ok
	case <-time.After(d):
		return "", false
	}
}

// NothingElseToAgent checks that nothing more reached the agent: a
// notification the client sends now is the next line the agent gets.
func (h *Harness) NothingElseToAgent(t *testing.T) {
	t.Helper()
	h.Client.Send(`{"jsonrpc":"2.0","method":"_marker"}`)
	require.Equal(t, `{"jsonrpc":"2.0","method":"_marker"}`, h.Agent.Recv(), "a stray response reached the agent")
}
