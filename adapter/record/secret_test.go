package record

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRewriteStringsKeepsNamesOrderAndNumbers(t *testing.T) {
	s := &secrets{}
	s.add("abc")
	s.add("l0ng-s3cret")
	in := `{"jsonrpc":"2.0","id":"abc","method":"abc","params":{"z":1.50,"abc":"abc","a":[true,null,"say l0ng-s3cret twice: l0ng-s3cret","xabcx"],"e":{}}}`
	out, err := rewriteStrings([]byte(in), s.hide)
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":"abc","method":"abc","params":{"z":1.50,"abc":"(secret)","a":[true,null,"say (secret) twice: (secret)","xabcx"],"e":{}}}`, string(out),
		"a short secret only as a whole string; a message's own id and method stay")
}
