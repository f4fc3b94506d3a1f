package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestContainFlagTakesAutoOnOff(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"auto", "on", "off"} {
		fs, o := proxyFlags()
		require.NoError(t, fs.Parse([]string{"--contain", v}))
		assert.Equal(t, v, o.contain.String())
	}
	fs, _ := proxyFlags()
	fs.SetOutput(io.Discard)
	err := fs.Parse([]string{"--contain", "maybe"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"maybe" is not auto, on or off`)
}
