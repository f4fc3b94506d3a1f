package conformance

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/internal/acpschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func acpSchemaForTest(t *testing.T) *acpschema.Schema {
	t.Helper()
	s, err := acpschema.ACP()
	require.NoError(t, err)
	return s
}

// TestSchemaFixtures validates every message askbridge itself writes in the
// fixtures (their want sections, less the lines it relays unchanged)
// against the official ACP schema: a request's params, a notification's
// params, a response's result by the method of the request it answers, an
// error as the schema's Error; and it lets no member through that the
// schema does not declare, unless deliberate.
func TestSchemaFixtures(t *testing.T) {
	s := acpSchemaForTest(t)
	shapes := map[string]bool{}
	defs := map[string]int{}
	unknown := map[string]int{}
	messages := 0
	for _, file := range fixtures(t) {
		f, err := Load(file)
		require.NoError(t, err)
		sides, err := authoredLines(flattenBatches(f))
		require.NoError(t, err, file)
		check := checkerOf(t, f, s)
		for _, a := range sides {
			for _, line := range a.lines {
				c := check(line, a.requests)
				if err := c.Problem(); err != nil {
					t.Errorf("%s: to the %s: %s (%s): %v\n  %s", filepath.Base(file), a.side, c.What, c.Def, err, trimLine(line))
					continue
				}
				if c.Def == "" {
					unknown[c.What]++
					continue
				}
				messages++
				defs[c.Def]++
				shapes[c.Shape] = true
			}
		}
	}
	t.Logf("checked %d messages askbridge writes, %d shapes, against %v", messages, len(shapes), defs)
	t.Logf("not in the schema, not checked: %v", unknown)
	// What askbridge is for must have been checked, or this test proves nothing.
	for _, def := range []string{"InitializeRequest", "RequestPermissionRequest", "RequestPermissionResponse",
		"SessionNotification", "CreateElicitationResponse", "CancelRequestNotification"} {
		assert.Positive(t, defs[def], "no %s among the messages checked", def)
	}
}

func trimLine(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// askbridge's own messages, as in the fixtures.
const (
	goodPermission = `{"jsonrpc":"2.0","id":"askbridge-1","method":"session/request_permission","params":{"_meta":{"askUserQuestion":{"index":0,"total":1}},"options":[{"kind":"allow_once","name":"Postgres - relational","optionId":"Postgres"},{"kind":"allow_once","name":"Other (type custom answer)","optionId":"__other__"}],"sessionId":"s1","toolCall":{"content":[{"content":{"text":"Which database?","type":"text"},"type":"content"}],"kind":"think","title":"Database","toolCallId":"toolu_1"}}}`
	goodInitialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}},"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}}}`
)

func TestSchemaChecksOnlyWhatAskbridgeWrote(t *testing.T) {
	relayed := `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}`
	f, err := Parse("x.txtar", []byte(strings.Join([]string{
		"-- client --",
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`,
		"-- agent --",
		`{"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{}}`,
		relayed,
		"-- want-client --",
		relayed,
		goodPermission,
		"-- want-agent --",
		goodInitialize,
		`{"jsonrpc":"2.0","id":5,"result":{"action":"cancel"}}`,
	}, "\n")))
	require.NoError(t, err)
	sides, err := authoredLines(f)
	require.NoError(t, err)
	require.Len(t, sides, 2)
	assert.Equal(t, "client", sides[0].side)
	assert.Equal(t, []string{goodPermission}, strs(sides[0].lines), "a relayed line is the agent's, not askbridge's")
	assert.Equal(t, map[string]string{"0": "initialize"}, sides[0].requests)
	assert.Len(t, sides[1].lines, 2, "the rewritten initialize is askbridge's")
	assert.Equal(t, map[string]string{"5": "elicitation/create"}, sides[1].requests)
	c := acpSchemaForTest(t).Check(sides[1].lines[1], sides[1].requests)
	assert.Equal(t, "CreateElicitationResponse", c.Def)
	assert.NoError(t, c.Problem())
}
