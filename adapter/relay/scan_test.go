package relay_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScanHeader(t *testing.T) {
	tests := []struct {
		line             string
		method, id       string
		req, notif, resp bool
	}{
		{line: `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"a":[1,2,{"method":"x"}]}}`, method: "initialize", id: "1", req: true},
		{line: `{"jsonrpc":"2.0","method":"session/update","params":{}}`, method: "session/update", notif: true},
		// A session/update's start is read at once; what follows params still counts.
		{line: `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s"},"id":7}`, method: "session/update", id: "7", req: true},
		{line: `{"jsonrpc":"2.0","method":"session/update","params":[],"method":"other"}`, method: "other", notif: true},
		{line: `{"jsonrpc":"2.0","method":"session/update","params":null , "result":1}`, method: "session/update", notif: true},
		{line: ` { "id" : "abc" , "result" : null } `, id: `"abc"`, resp: true},
		{line: `{"id":null,"error":{"code":-32700,"message":"x","data":{"id":2}}}`, id: "null", resp: true},
		{line: `{"id":-1.5e3,"method":"_x\/y","params":[]}`, method: `_x\/y`, id: "-1.5e3", req: true},
	}
	for _, tt := range tests {
		h, err := relay.Scan([]byte(tt.line))
		require.NoError(t, err, tt.line)
		assert.Equal(t, tt.method, string(h.Method()), tt.line)
		assert.Equal(t, tt.id, string(h.ID()), tt.line)
		assert.Equal(t, tt.req, h.IsRequest(), tt.line)
		assert.Equal(t, tt.notif, h.IsNotification(), tt.line)
		assert.Equal(t, tt.resp, h.IsResponse(), tt.line)
	}
}

func TestScanRejectsMalformed(t *testing.T) {
	for _, line := range []string{``, `not json`, `{"a":}`, `{"a":1`, `{"a":1}}`, `{"a" 1}`, `[1,]`, `{"a":tru}`,
		`{"a":"\x"}`, `{"a":01}`, `{"a":1.}`, `{"a":"unterminated}`, `{"a":1} x`, `{,}`, `{"a":[}`, `-`, `"\u12"`,
		`{"jsonrpc":"2.0","method":"session/update","params":`, `{"jsonrpc":"2.0","method":"session/update","params":{}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{}}}`, `{"jsonrpc":"2.0","method":"session/update","params":{},}`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"a":"\q"}}`} {
		_, err := relay.Scan([]byte(line))
		assert.Error(t, err, "%q", line)
	}
	// A deep line fails or passes without exhausting the stack.
	deep := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	_, err := relay.Scan([]byte(deep))
	assert.NoError(t, err)
}

// idSeeds are ids of every JSON type and size: the ones JSON-RPC allows
// (strings, numbers, null) spelt every way, and the ones it does not.
var idSeeds = []string{
	`0`, `1`, `-1`, `-0`, `7`, `1.0`, `1.5`, `-2.5e-3`, `1e2`, `1E+2`, `0.1e1`, `10e-1`,
	`9007199254740992`, `9007199254740993`, `12345678901234567890`, `12345678901234567891`,
	`-12345678901234567890`, `1` + strings.Repeat("0", 70), `1e400`, `1e-400`, `1e999999999`, `12345678901234567890e1234567890`,
	`""`, `"a"`, `"str-id"`, `"askbridge-1"`, `"askbridge-0123456789abcdef-1"`, `"\u0041"`, `"\ud83d\ude00"`, `"\ud800"`,
	`"q\"x"`, `"b\\s"`, `"a\/b"`, `"\b\f\n\r\t"`, `"é☃😀"`, `"` + strings.Repeat("long", 5000) + `"`,
	`null`, `true`, `false`, `{}`, `{"id":1}`, `[]`, `[1,"a",null]`, `{"a":[{"b":{}}]}`, ` 1 `, `"x" `,
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"id":1,"method":"a","params":{"x":[1,true,null,"s\n"]}}`, `[{"a":1}]`, `{"id":"x","result":{}}`, `1e5`, `"\u00e9"`,
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"plan"}},"id":1}`} {
		f.Add([]byte(s))
	}
	for _, id := range idSeeds {
		f.Add([]byte(id))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := relay.Scan(b)
		// scan is json.Valid except that it tolerates control bytes in strings.
		if json.Valid(b) && err != nil {
			t.Fatalf("valid JSON rejected: %q: %v", b, err)
		}
		if err == nil && !json.Valid(b) && !strings.ContainsFunc(string(b), func(r rune) bool { return r < 0x20 }) {
			t.Fatalf("invalid JSON accepted: %q", b)
		}
		// Any value scan takes may be an id: the relay routes by it.
		if err == nil && bytes.IndexByte(b, '\n') < 0 {
			checkIDScans(t, b)
			checkIDKey(t, b)
			checkIDRoutes(t, b)
		}
	})
}
