package conformance

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/acpschema"
)

// checkerOf checks a fixture's messages against v2's schema where
// initialize agreed on version 2 (the client asked for it and the agent
// answered it), else v1's; the initialize request itself against the
// version the client asked for (a v2 editor's, whatever the agent answers).
func checkerOf(t *testing.T, f *Fixture, v1 *acpschema.Schema) func([]byte, map[string]string) acpschema.Checked {
	t.Helper()
	v2, err := acpschema.ACPv2()
	require.NoError(t, err)
	agreed, asked := v1, v1
	if agreedV2(f) {
		agreed = v2
	}
	if version(f.Client, "params") >= 2 {
		asked = v2
	}
	return func(line []byte, requests map[string]string) acpschema.Checked {
		if _, method, ok := acpschema.Request(line); ok && method == "initialize" {
			return asked.Check(line, requests)
		}
		return agreed.Check(line, requests)
	}
}

// flattenBatches is the fixture with each batch line (a JSON array) as its
// messages, one a line: the schema speaks of messages.
func flattenBatches(f *Fixture) *Fixture {
	flat := func(lines [][]byte) [][]byte {
		var out [][]byte
		for _, l := range lines {
			var elems []json.RawMessage
			if json.Unmarshal(l, &elems) != nil {
				out = append(out, l)
				continue
			}
			for _, e := range elems {
				out = append(out, []byte(e))
			}
		}
		return out
	}
	c := *f
	c.Client, c.Agent, c.WantClient, c.WantAgent = flat(f.Client), flat(f.Agent), flat(f.WantClient), flat(f.WantAgent)
	return &c
}

func agreedV2(f *Fixture) bool {
	return version(f.Client, "params") >= 2 && version(f.Agent, "result") == 2
}

// version is the protocolVersion of the first initialize request (member
// params) or of the answer to id 0 (member result) among lines.
func version(lines [][]byte, member string) int {
	for _, l := range lines {
		var m map[string]json.RawMessage
		if json.Unmarshal(l, &m) != nil {
			continue
		}
		if member == "params" && string(m["method"]) == `"initialize"` || member == "result" && string(m["id"]) == "0" && m["result"] != nil {
			var v struct {
				ProtocolVersion int `json:"protocolVersion"`
			}
			if json.Unmarshal(m[member], &v) == nil {
				return v.ProtocolVersion
			}
		}
	}
	return 0
}

// The v2 fixtures are checked against v2's schema, and that check can
// fail: a v1-shaped permission request (toolCall, no title) is not a v2
// one.
func TestSchemaV2RejectsV1Shapes(t *testing.T) {
	s, err := acpschema.ACPv2()
	require.NoError(t, err)
	c := s.Check([]byte(goodPermission), nil)
	require.Error(t, c.Problem(), "a v1 permission request passed v2's schema")
	v2 := `{"jsonrpc":"2.0","id":"askbridge-1","method":"session/request_permission","params":{"sessionId":"s1","title":"Database","description":"Which database?","subject":{"type":"tool_call","toolCall":{"toolCallId":"toolu_1","kind":"think","title":"Database"}},"options":[{"kind":"allow_once","name":"Postgres","optionId":"Postgres"}]}}`
	require.NoError(t, s.Check([]byte(v2), nil).Problem())
}
