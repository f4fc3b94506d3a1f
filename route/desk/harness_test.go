package desk

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/require"
)

// bridged is a desk in front of the real adapter, with the agent and the
// client played by the test over pipes.
type bridged struct {
	t                 *testing.T
	desk              *Server
	board             *permission.Board
	toClient, toAgent chan string
	fromClient        io.Writer // what the client sends
	fromAgent         io.Writer // what the agent sends
}

func newBridged(t *testing.T) *bridged {
	t.Helper()
	return newBridgedWith(t, adapter.Options{})
}

// newBridgedWith is newBridged with the bridge's options (the board, the
// limits and Advertise are the harness's).
func newBridgedWith(t *testing.T, opts adapter.Options) *bridged {
	t.Helper()
	board := permission.NewBoard()
	d, err := Listen("127.0.0.1:0", board, Options{})
	require.NoError(t, err)
	cInR, cInW := io.Pipe()
	cOutR, cOutW := io.Pipe()
	aInR, aInW := io.Pipe()
	aOutR, aOutW := io.Pipe()
	relay := relay.New(relay.Config{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: aOutW})
	opts.Advertise, opts.Board, opts.Limits = true, board, permission.DefaultLimits()
	cleanup := adapter.NewBridge(opts).Setup(relay)
	relay.Start()
	t.Cleanup(func() {
		d.Close()
		cleanup()
		cInW.Close()
		aInW.Close()
		cOutW.Close()
		aOutW.Close()
	})
	b := &bridged{t: t, desk: d, board: board, toClient: lines(cOutR), toAgent: lines(aOutR), fromClient: cInW, fromAgent: aInW}
	b.send(b.fromClient, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	b.expect(b.toAgent, "session/new")
	b.send(b.fromAgent, `{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}`)
	b.expect(b.toClient, `"sessionId":"s1"`)
	return b
}

func lines(r io.Reader) chan string {
	ch := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			ch <- sc.Text()
		}
		close(ch)
	}()
	return ch
}

func (b *bridged) send(w io.Writer, line string) { fmt.Fprintln(w, line) }

// expect returns the first line on ch containing sub, within 30 seconds.
func (b *bridged) expect(ch chan string, sub string) string {
	b.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-ch:
			if !ok {
				b.t.Fatalf("stream ended before %q", sub)
			}
			if strings.Contains(l, sub) {
				return l
			}
		case <-deadline:
			b.t.Fatalf("never saw %q", sub)
		}
	}
}

// quiet fails if a line containing sub arrives on ch within d.
func (b *bridged) quiet(ch chan string, sub string, d time.Duration) {
	b.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case l := <-ch:
			if strings.Contains(l, sub) {
				b.t.Fatalf("unexpected %s", l)
			}
		case <-deadline:
			return
		}
	}
}
