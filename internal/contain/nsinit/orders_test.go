package nsinit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOrdersReadAsWritten(t *testing.T) {
	for _, o := range []Orders{
		{Args: []string{"-grace", "2s", "--", "/bin/agent", "agent", ""}, Env: []string{"HOME=/home/u", "EMPTY="}, Dir: "/home/u/project"},
		{Args: []string{"--", "/a", "a"}},
	} {
		b, err := o.Encode()
		require.NoError(t, err)
		n, err := ordersLen(b[:8])
		require.NoError(t, err)
		require.Equal(t, len(b)-8, n)
		got, err := decodeOrders(b[8:])
		require.NoError(t, err)
		if o.Env == nil {
			o.Env = []string{}
		}
		assert.Equal(t, o, got)
	}
}

func TestOrdersRefuseWhatExecCouldNotTake(t *testing.T) {
	for _, o := range []Orders{
		{Args: []string{"--", "/a", "a\x00b"}},
		{Args: []string{"--", "/a", "a"}, Env: []string{"A=\x00"}},
		{Args: []string{"--", "/a", "a"}, Dir: "/x\x00"},
	} {
		_, err := o.Encode()
		assert.Error(t, err, "%q", o)
	}
}

func TestBadOrdersAreRefused(t *testing.T) {
	for _, body := range []string{"", "x", "1\x00", "2\x00a\x00", "1\x00a\x000\x00", "1\x00a\x000\x00/d\x00extra\x00", "-1\x00"} {
		_, err := decodeOrders([]byte(body))
		assert.Error(t, err, "%q", body)
	}
	for _, head := range [][]byte{make([]byte, 8), {0xff, 0, 0, 0, 0, 0, 0, 0}} {
		_, err := ordersLen(head)
		assert.Error(t, err, "%x", head)
	}
}
