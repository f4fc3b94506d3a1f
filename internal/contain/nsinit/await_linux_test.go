package nsinit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheFlagsOfAnEarlyInit(t *testing.T) {
	o, rest, err := parseFlags([]string{"-uid", "1000", "-gid", "100"})
	require.NoError(t, err)
	assert.Equal(t, [2]int{1000, 100}, [2]int{o.uid, o.gid})
	assert.Empty(t, rest)
	o, _, err = parseFlags(nil)
	require.NoError(t, err)
	assert.Equal(t, [2]int{-1, -1}, [2]int{o.uid, o.gid}, "mapped already")
	for _, args := range [][]string{{"-uid"}, {"-uid", "x"}, {"-what", "1s"}} {
		_, _, err := parseFlags(args)
		assert.Error(t, err, "%q", args)
	}
}
