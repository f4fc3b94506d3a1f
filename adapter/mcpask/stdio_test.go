package mcpask

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/stretchr/testify/assert"
)

// Brackets inside strings are text, not nesting; a line that is exactly
// deep enough, or ends in CRLF, is a message.
func TestDecodeLineCountsOnlyRealNesting(t *testing.T) {
	text := strings.Repeat("[{", 500) + `\"` + strings.Repeat("[", 500)
	msg, _, code, why := decodeLine(inLine{b: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"t":"` + text + `"}}` + "\r\n")})
	assert.NotNil(t, msg, "%d %s", code, why)

	inner := MaxDepth - 2 // the message and its params are two levels
	deep := func(n int) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}}`)
	}
	msg, _, code, _ = decodeLine(inLine{b: deep(inner)})
	assert.NotNil(t, msg)
	assert.Zero(t, code)
	msg, _, code, _ = decodeLine(inLine{b: deep(inner + 1)})
	assert.Nil(t, msg)
	assert.Equal(t, jsonrpc.CodeInvalidRequest, code)

	msg, _, code, _ = decodeLine(inLine{b: []byte(" \t\r\n")})
	assert.Nil(t, msg)
	assert.Zero(t, code, "an empty line is skipped, not answered")

	_, id, code, _ := decodeLine(inLine{b: []byte(`{"jsonrpc":"2.0","id":"a-1","method":5}`)})
	assert.Equal(t, jsonrpc.CodeInvalidRequest, code)
	assert.Equal(t, `"a-1"`, string(id), "answered to its id when it has a usable one")
	_, id, _, _ = decodeLine(inLine{b: []byte(`{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}`)})
	assert.Nil(t, id, "an object is no id: null")
}
