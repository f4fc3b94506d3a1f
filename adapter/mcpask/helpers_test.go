package mcpask

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/stretchr/testify/require"
)

// askParams is what the fake askbridge received.
type askParams struct {
	Questions []permission.Question `json:"questions"`
	MCPTag    string                `json:"mcpTag"`
	Format    string                `json:"format"`
	Raw       json.RawMessage       `json:"-"` // the params as sent
}

// fakeBridge is the `askbridge ask` socket: a jsonrpc2 listener answering
// _askbridge/ask with what answer returns.
type fakeBridge struct {
	path   string
	answer func(ctx context.Context, conn *jsonrpc2.Conn, p askParams) (any, error)

	mu      sync.Mutex
	asked   []askParams
	stopped []askwire.StoppedWaiting // askwire.StoppedWaitingMethod's params, as received
	gone    chan struct{}            // closed when a connection ends
}

func startFakeBridge(t *testing.T, answer func(ctx context.Context, conn *jsonrpc2.Conn, p askParams) (any, error)) *fakeBridge {
	t.Helper()
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	// Unix socket paths are short: not under t.TempDir's long name.
	dir, err := os.MkdirTemp("", "mcpask")
	require.NoError(t, err)
	f := &fakeBridge{path: filepath.Join(dir, "ask.sock"), answer: answer, gone: make(chan struct{}, 16)}
	ln, err := net.Listen("unix", f.path)
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close(); os.RemoveAll(dir) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(c)
		}
	}()
	return f
}

func (f *fakeBridge) serve(c net.Conn) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		if req.Method == askwire.StoppedWaitingMethod {
			var p askwire.StoppedWaiting
			if req.Params != nil {
				json.Unmarshal(*req.Params, &p)
			}
			f.mu.Lock()
			f.stopped = append(f.stopped, p)
			f.mu.Unlock()
			return nil, nil
		}
		if req.Method != askwire.Method {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "unknown method " + req.Method}
		}
		var p askParams
		if req.Params == nil || json.Unmarshal(*req.Params, &p) != nil {
			return nil, &jsonrpc2.Error{Code: codeInvalidParams, Message: "bad params"}
		}
		p.Raw = *req.Params
		f.mu.Lock()
		f.asked = append(f.asked, p)
		f.mu.Unlock()
		return f.answer(ctx, conn, p)
	})
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewPlainObjectStream(c), jsonrpc2.AsyncHandler(h))
	<-conn.DisconnectNotify()
	f.gone <- struct{}{}
}

func (f *fakeBridge) saw() []askParams {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]askParams(nil), f.asked...)
}

func (f *fakeBridge) stoppedWaiting() []askwire.StoppedWaiting {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]askwire.StoppedWaiting(nil), f.stopped...)
}

// connect runs the server with opts in process and returns a client
// session to it over in-memory transports.
func connect(t *testing.T, opts Options) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(opts).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "0"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callAsk calls the tool with args (JSON) and a bound on its time.
func callAsk(t *testing.T, cs *mcp.ClientSession, args string) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: json.RawMessage(args)})
	require.NoError(t, err)
	return res
}

// text is the result's text content.
func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1)
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content is %T", res.Content[0])
	return tc.Text
}

// pick answers the first question of the set with the given labels, or
// with typed text when custom is not empty.
func pick(p askParams, custom string, labels ...string) permission.Result {
	q := p.Questions[0]
	a := permission.Answer{Labels: labels, Other: custom != "", Custom: custom}
	return permission.Result{Answers: []permission.Answered{{Question: q, Answer: a, Path: "questions[0]", Index: 0}}}
}

const dbQuestion = `{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"Redis","description":"in memory"}]}]}`

const featuresQuestion = `{"questions":[{"question":"Which features?","header":"Features","multiSelect":true,"options":[{"label":"Auth"},{"label":"Search"},{"label":"Billing"}]}]}`
