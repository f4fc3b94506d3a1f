package nsinit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIDsOfAnEarlyInit(t *testing.T) {
	uid, gid, err := ids([]string{"-uid", "1000", "-gid", "100"})
	require.NoError(t, err)
	assert.Equal(t, [2]int{1000, 100}, [2]int{uid, gid})
	uid, gid, err = ids(nil)
	require.NoError(t, err)
	assert.Equal(t, [2]int{-1, -1}, [2]int{uid, gid}, "mapped already")
	for _, args := range [][]string{{"-uid"}, {"-uid", "x"}, {"-grace", "1s"}} {
		_, _, err := ids(args)
		assert.Error(t, err, "%q", args)
	}
}
