package relay

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFieldFindsAMemberWithoutDecoding(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"prompt":[{"type":"text","text":"a \"quoted\" {brace}"}], "sessionId" : "s\u00e91"}}`)
	v, ok := Field(line, "params", "sessionId")
	assert.True(t, ok)
	assert.Equal(t, `"s\u00e91"`, string(v))
	s, ok := StringField(line, "params", "sessionId")
	assert.True(t, ok)
	assert.Equal(t, "sé1", s)
	v, ok = Field(line, "id")
	assert.True(t, ok)
	assert.Equal(t, "7", string(v))

	for _, bad := range []string{
		`{"params":{"sessionId":"s1"}`,    // unterminated
		`{"params":{"sessionId":"s1"}} x`, // trailing data
		`{"params":{"session":"s1"}}`,     // no such member
		`{"params":["sessionId","s1"]}`,   // not an object
		`["params"]`,                      // not an object
		`{"params":{"sessionId":s1}}`,     // not JSON
		`{"params":{"sessionId":"s1",}}`,  // not JSON
	} {
		_, ok := StringField([]byte(bad), "params", "sessionId")
		assert.False(t, ok, bad)
	}
	_, ok = StringField([]byte(`{"params":{"sessionId":1}}`), "params", "sessionId")
	assert.False(t, ok, "a number is not a string")
}

// Field agrees with encoding/json on whatever scan takes.
func FuzzField(f *testing.F) {
	f.Add([]byte(`{"params":{"sessionId":"s1","prompt":[]}}`))
	f.Add([]byte(`{"params":{"sessionId":"a\"b"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, ok := StringField(b, "params", "sessionId")
		var v struct {
			Params *struct {
				SessionID *string `json:"sessionId"`
			} `json:"params"`
		}
		if !ok {
			return
		}
		// What Field found, encoding/json finds too (when it takes the
		// line: scan tolerates control bytes in strings, json does not).
		if err := jsonUnmarshal(b, &v); err == nil {
			if v.Params == nil || v.Params.SessionID == nil || *v.Params.SessionID != s {
				t.Fatalf("Field says %q for %q", s, b)
			}
		}
	})
}
