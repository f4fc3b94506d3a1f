package adapter

import (
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// hooked is the probe with other hooks and another name.
type hooked struct {
	probe
	name  string
	hooks []dialect.Hook
}

func (h *hooked) Name() string          { return h.name }
func (h *hooked) Hooks() []dialect.Hook { return h.hooks }

// rewriting is the probe with rewrites of its own.
type rewriting struct {
	probe
	rewrites []dialect.Rewrite
}

func (r *rewriting) Rewrites(dialect.Host) []dialect.Rewrite { return r.rewrites }

func TestTheDialectTableIsSound(t *testing.T) {
	logs := &syncBuffer{}
	table := Dialects()
	assert.Len(t, sound(table, slog.New(slog.NewTextHandler(logs, nil))), len(table))
	assert.Empty(t, logs.String())
}

func TestADialectWhoseHooksCannotWorkIsNamed(t *testing.T) {
	ask := dialect.Hook{From: dialect.FromAgent, Method: "x/ask"}
	for _, tc := range []struct {
		name string
		d    dialect.Dialect
		err  string
	}{
		{"nil", nil, "a nil dialect"},
		{"no name", &hooked{hooks: []dialect.Hook{ask}}, "a dialect without a name"},
		{"no method", &hooked{name: "p", hooks: []dialect.Hook{{From: dialect.FromAgent}}}, "dialect p: a hook without a method"},
		{"unknown side", &hooked{name: "p", hooks: []dialect.Hook{{From: 7, Method: "x/ask"}}}, `dialect p: hook "x/ask": unknown side 7`},
		{"twice", &hooked{name: "p", hooks: []dialect.Hook{ask, ask}}, `dialect p: hook "x/ask" is declared twice`},
		{"kinds elsewhere", &hooked{name: "p", hooks: []dialect.Hook{{From: dialect.FromAgent, Method: "x/ask", Updates: []string{"plan"}}}}, `dialect p: hook "x/ask": update kinds are for the agent's session/update only`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkDialect(tc.d)
			require.Error(t, err)
			assert.Equal(t, tc.err, err.Error())
		})
	}
	assert.NoError(t, checkDialect(&probe{}))
}

// A dialect whose hooks cannot work is left out when the bridge is made:
// its messages go on to the client as no dialect's, and the log says so.
// Installed, the unknown side would have been taken for the agent's, and
// x/ask asked.
func TestNewBridgeLeavesOutADialectWhoseHooksCannotWork(t *testing.T) {
	logs := &syncBuffer{}
	bad := &hooked{name: "bad", hooks: []dialect.Hook{{From: 7, Method: "x/ask"}}}
	twin := &hooked{name: "probe", hooks: []dialect.Hook{{From: dialect.FromAgent, Method: "x/other"}}}
	good := &probe{}
	h := newBridgeHarness(t, Options{Dialects: []dialect.Dialect{bad, good, twin}, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	assert.Equal(t, []dialect.Dialect{good}, h.bridge.dialects)
	assert.Contains(t, logs.String(), "left out a dialect whose hooks cannot work")
	assert.Contains(t, logs.String(), `unknown side 7`)
	assert.Contains(t, logs.String(), `another dialect is named \"probe\"`)

	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":1,"method":"x/other","params":{}}`)
	assert.Equal(t, "x/other", decode(t, h.Client.Recv()).Method, "the twin's hook is not installed")
}

// A rewrite that cannot work is left out, logged; installed, its nil
// interceptor would have panicked on the first message of its method.
func TestARewriteThatCannotWorkIsLeftOut(t *testing.T) {
	logs := &syncBuffer{}
	d := &rewriting{rewrites: []dialect.Rewrite{
		{Hook: dialect.Hook{From: dialect.FromAgent, Method: "x/note"}},
		{Hook: dialect.Hook{From: 9, Method: "x/other"}, Intercept: func(*relay.Message) relay.Verdict { return relay.Verdict{Take: true} }},
	}}
	h := newBridgeHarness(t, Options{Dialects: []dialect.Dialect{d}, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	h.Agent.Send(`{"jsonrpc":"2.0","method":"x/note"}`)
	assert.Equal(t, "x/note", decode(t, h.Client.Recv()).Method)
	assert.Contains(t, logs.String(), `probe: left out a rewrite that cannot work" method=x/note err="no interceptor"`)
	assert.Contains(t, logs.String(), `unknown side 9`)
}
