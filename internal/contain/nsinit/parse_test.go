package nsinit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseReadsWhatContainWrites(t *testing.T) {
	o, err := parse([]string{"-grace", "3s", "-uid", "1000", "-gid", "100", "-hide", "/a", "-hide", "/b", "-keep", "/a/x/s", "--", "/bin/agent", "agent", "--acp"})
	require.NoError(t, err)
	assert.Equal(t, options{grace: 3 * time.Second, uid: 1000, gid: 100, hide: []string{"/a", "/b"}, keep: []string{"/a/x/s"},
		path: "/bin/agent", argv: []string{"agent", "--acp"}}, o)
	o, err = parse([]string{"--", "/bin/agent", "agent"})
	require.NoError(t, err)
	assert.Equal(t, -1, o.uid, "mapped already")
	assert.Equal(t, 2*time.Second, o.grace)
}

func TestParseRefusesWhatItDoesNotKnow(t *testing.T) {
	for _, args := range [][]string{{"-what", "x", "--", "/a", "a"}, {"-uid"}, {"-uid", "x", "--", "/a", "a"}, {"--", "/a"}} {
		_, err := parse(args)
		assert.Error(t, err, "%q", args)
	}
}

func TestUnder(t *testing.T) {
	assert.True(t, under("/run/u/askbridge/ask-1", "/run/u/askbridge"))
	assert.True(t, under("/run/u/askbridge", "/run/u/askbridge/"))
	assert.False(t, under("/run/u/askbridge2/x", "/run/u/askbridge"))
}
