package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/mcpask"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A malformed line (not JSON, a batch, 10,000 levels deep, 20 MB long, not
// a JSON-RPC message) gets a JSON-RPC error and `askbridge mcp` goes on:
// the next request is answered, and the agent keeps its ask tool.
func TestMCPAnswersMalformedLinesAndGoesOn(t *testing.T) {
	t.Setenv(askwire.SocketEnv, "")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr lockedBuffer
	exited := make(chan int, 1)
	go func() {
		exited <- runMCP(nil, inR, outW, &stderr)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close(); inR.Close(); outR.Close() })
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send := func(s string) {
		t.Helper()
		_, err := io.WriteString(inW, s+"\n")
		require.NoError(t, err)
	}
	next := func() map[string]any {
		t.Helper()
		select {
		case l, ok := <-lines:
			require.True(t, ok, "askbridge mcp stopped writing; stderr: %s", stderr.String())
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(l), &m), l)
			return m
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer within 10s; stderr: %s", stderr.String())
			return nil
		}
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"agent","version":"0"}}}`)
	require.Contains(t, next(), "result")
	send(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)

	deep := `{"jsonrpc":"2.0","id":7,"method":"ping","params":{"a":` + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + `}}`
	huge := `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":"` + strings.Repeat("x", 20<<20) + `"}}`
	for _, c := range []struct {
		name, line string
		code       float64
		id         any
	}{
		{"not JSON", `this is not json`, -32700, nil},
		{"a batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, -32600, nil},
		{"10,000 levels", deep, -32600, nil},
		{"20 MB", huge, -32600, nil},
		{"a bare number", `42`, -32600, nil},
		{"no JSON-RPC version", `{"id":6,"method":"ping"}`, -32600, 6.0},
	} {
		send(c.line)
		m := next()
		e, _ := m["error"].(map[string]any)
		require.NotNil(t, e, "%s: %v", c.name, m)
		assert.Equal(t, c.code, e["code"], c.name)
		assert.Equal(t, c.id, m["id"], c.name)
		assert.Contains(t, m, "id", "%s: id null is spelt out", c.name)
	}

	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	m := next()
	assert.EqualValues(t, 2, m["id"])
	assert.Contains(t, jsonString(m["result"]), mcpask.ToolName, "the ask tool is still there")
	assert.Contains(t, stderr.String(), "malformed line")

	inW.Close()
	select {
	case code := <-exited:
		assert.Equal(t, 0, code)
	case <-time.After(10 * time.Second):
		t.Fatal("askbridge mcp did not exit when its stdin closed")
	}
}

// lockedBuffer is a stderr the test reads while the server writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
