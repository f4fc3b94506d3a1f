//go:build unix

package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A fake agent on pipes: it asks the client one permission question while
// a prompt is pending, then answers the prompt with what the client chose.
func TestConnAnswersAgentRequestsDuringACall(t *testing.T) {
	toAgentR, toAgentW := io.Pipe()
	fromAgentR, fromAgentW := io.Pipe()
	rec, err := newRecorder("")
	require.NoError(t, err)
	var notes []string
	c := newConn(Client{
		RequestPermission: func(p json.RawMessage) (any, error) {
			return map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "yes"}}, nil
		},
		Notify: func(method string, _ json.RawMessage) { notes = append(notes, method) },
	}, rec, toAgentW)
	go c.read(fromAgentR)

	go func() {
		in := bufio.NewScanner(toAgentR)
		in.Scan() // session/prompt, id 1
		var prompt envelope
		json.Unmarshal(in.Bytes(), &prompt)
		io.WriteString(fromAgentW, `{"jsonrpc":"2.0","method":"session/update","params":{}}`+"\n")
		io.WriteString(fromAgentW, `{"jsonrpc":"2.0","id":0,"method":"session/request_permission","params":{}}`+"\n")
		io.WriteString(fromAgentW, `{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{}}`+"\n")
		answers := map[string]json.RawMessage{}
		for len(answers) < 2 && in.Scan() {
			var e envelope
			json.Unmarshal(in.Bytes(), &e)
			answers[string(e.ID)] = in.Bytes()
		}
		assert.JSONEq(t, `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"the test client does not support fs/read_text_file"}}`, string(answers["7"]))
		var perm envelope
		json.Unmarshal(answers["0"], &perm)
		io.WriteString(fromAgentW, `{"jsonrpc":"2.0","id":`+string(prompt.ID)+`,"result":{"stopReason":"end_turn","picked":`+string(perm.Result)+`}}`+"\n")
		fromAgentW.Close()
	}()

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := c.Call(ctx, "session/prompt", map[string]any{"sessionId": "s"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"stopReason":"end_turn","picked":{"outcome":{"outcome":"selected","optionId":"yes"}}}`, string(res))
	assert.Equal(t, []string{"session/update"}, notes)

	select {
	case <-c.done:
	case <-ctx.Done():
		t.Fatal("the reader did not see the end of the stream")
	}
	_, err = c.Call(ctx, "session/new", nil)
	assert.ErrorContains(t, err, "the agent closed its stdout")
	lines := rec.all()
	require.NotEmpty(t, lines)
	assert.Equal(t, ToAgent, lines[0].Dir)
	assert.Len(t, lines, 7, "every line both ways: the prompt, an update, two requests and their answers, the result; nothing for a call after the end")
}

func TestRecorderKeepsLinesThatAreNotJSON(t *testing.T) {
	rec, err := newRecorder("")
	require.NoError(t, err)
	rec.add(FromAgent, []byte("not json"))
	assert.JSONEq(t, `"not json"`, string(rec.all()[0].Msg))
}
