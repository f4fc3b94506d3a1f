//go:build live

package live

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run Qwen Code directly: they pin down its question request
// (session/request_permission carrying the questions) and the response
// fields it reads.

// permissions collects session/request_permission params and answers each
// with the next scripted result (then cancelled).
type permissions struct {
	mu      sync.Mutex
	params  []json.RawMessage
	answers []string
}

func (p *permissions) answer(params json.RawMessage) (any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.params = append(p.params, params)
	a := `{"outcome":{"outcome":"cancelled"}}`
	if len(p.answers) > 0 {
		a, p.answers = p.answers[0], p.answers[1:]
	}
	if a == "error" {
		return nil, &harness.RPCError{Code: -32603, Message: "the test client failed"}
	}
	return json.RawMessage(a), nil
}

func (p *permissions) got() []json.RawMessage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]json.RawMessage(nil), p.params...)
}

func TestQwenDirectQuestions(t *testing.T) {
	cases := []struct {
		name    string
		answers []string
		stop    string
		results []string
	}{
		{
			name:    "submit with answers",
			answers: []string{`{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":{"0":"SQLite","1":"Go, Python"}}`},
		},
		{
			name:    "submit with typed text",
			answers: []string{`{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":{"0":"CockroachDB","1":"Zig"}}`},
		},
		{
			name:    "submit with answers in _meta only",
			answers: []string{`{"outcome":{"outcome":"selected","optionId":"proceed_once"},"_meta":{"answers":{"0":"SQLite"}}}`},
		},
		{
			name:    "submit without answers",
			answers: []string{`{"outcome":{"outcome":"selected","optionId":"proceed_once"}}`},
		},
		{
			name:    "submit with one of two answers",
			answers: []string{`{"outcome":{"outcome":"selected","optionId":"proceed_once"},"answers":{"1":"Rust"}}`},
		},
		{
			name:    "cancel option",
			answers: []string{`{"outcome":{"outcome":"selected","optionId":"cancel"}}`},
		},
		{
			name:    "cancelled outcome",
			answers: []string{`{"outcome":{"outcome":"cancelled"}}`},
		},
		{
			name:    "client error",
			answers: []string{"error"},
		},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			m := model(t, harness.Qwen.Tool, twoQuestions)
			p := &permissions{answers: c.answers}
			r := harness.Start(t, harness.Qwen, harness.Options{ModelURL: m.URL, Client: harness.Client{RequestPermission: p.answer}})
			_, stop, err := r.Turn(harness.NoFeatures, "Ask me about the service.")
			require.NoError(t, err)
			t.Logf("stop reason %q", stop)
			for i, params := range p.got() {
				t.Logf("session/request_permission %d: %s", i, params)
			}
			for i, res := range m.Results() {
				t.Logf("tool result %d: %q", i, res.Text)
				if i < len(c.results) {
					assert.Equal(t, c.results[i], res.Text)
				}
			}
		})
	}
}
