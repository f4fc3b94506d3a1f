//go:build live

package live

import (
	"encoding/json"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
)

// mode is how a test reaches the agent: directly, or through askbridge.
// Scenarios that must not depend on askbridge run in both (as gopls runs
// one scenario against the server and through its forwarder).
type mode struct {
	name string
	wrap func(t *testing.T) []string
}

var (
	direct  = mode{"direct", func(*testing.T) []string { return nil }}
	bridged = mode{"askbridge", func(t *testing.T) []string {
		return harness.Askbridge(askbridge(t), "--log-level=debug", "--min-answer-time=0")
	}} // scripted clients answer at once, on purpose
	modes = []mode{direct, bridged}
)

// permissionLog answers session/request_permission with answer and keeps
// every request's params.
type permissionLog struct {
	mu     sync.Mutex
	params []map[string]any
	answer func(n int, params map[string]any) string // n counts from 1
}

func (p *permissionLog) handle(raw json.RawMessage) (any, error) {
	var params map[string]any
	if err := json.Unmarshal(raw, &params); err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.params = append(p.params, params)
	n := len(p.params)
	p.mu.Unlock()
	out := `{"outcome":{"outcome":"cancelled"}}`
	if p.answer != nil {
		out = p.answer(n, params)
	}
	return json.RawMessage(out), nil
}

func (p *permissionLog) got() []map[string]any {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]map[string]any(nil), p.params...)
}

// titles are the toolCall titles of the permission requests.
func (p *permissionLog) titles() []string {
	var out []string
	for _, params := range p.got() {
		tc, _ := params["toolCall"].(map[string]any)
		title, _ := tc["title"].(string)
		out = append(out, title)
	}
	return out
}

func pick(optionID string) string {
	return `{"outcome":{"outcome":"selected","optionId":"` + optionID + `"}}`
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
