package opencode

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRecogniseOpenCodeBehindALauncher(t *testing.T) {
	for argv, want := range map[string]bool{
		"opencode acp":                   true,
		"/usr/bin/opencode acp --cwd x":  true,
		"npx opencode-ai acp":            true,
		"opencode run":                   false,
		"node claude-agent-acp/index.js": false,
	} {
		assert.Equal(t, want, (&Dialect{}).Recognise(strings.Fields(argv)), argv)
	}
}

// Launch starts OpenCode's server on a loopback port of its own, with a
// password of its own, and the question tool on.
func TestLaunchStartsTheServerOnLoopbackWithAPassword(t *testing.T) {
	d := &Dialect{}
	cmd, env, err := d.Launch([]string{"opencode", "acp"})
	require.NoError(t, err)
	srv := d.Server
	require.NotNil(t, srv, "Launch set the server")
	port, ok := strings.CutPrefix(srv.BaseURL, "http://127.0.0.1:")
	require.True(t, ok, srv.BaseURL)
	assert.Equal(t, []string{"opencode", "acp", "--port", port, "--hostname", "127.0.0.1"}, cmd)
	assert.Contains(t, env, "OPENCODE_ENABLE_QUESTION_TOOL=1")
	assert.Contains(t, env, "OPENCODE_SERVER_PASSWORD="+srv.Password)
	assert.Len(t, srv.Password, 48)
}
