package notify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The ntfy topic is safe from a contained agent only in askbridge's config
// folder: a topic in the environment, on the command line, or in a file
// elsewhere (or linked from there to elsewhere) is named at start.
func TestATopicOutsideAskbridgesFoldersIsNamed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("HOME", home)
	t.Setenv(URLEnv, "")
	want, err := TopicFile()
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(want), 0o700))
	require.NoError(t, os.WriteFile(want, []byte("https://ntfy.sh/t\n"), 0o600))
	elsewhere := filepath.Join(home, "ntfy-topic")
	require.NoError(t, os.WriteFile(elsewhere, []byte("https://ntfy.sh/t\n"), 0o600))
	linked := filepath.Join(filepath.Dir(want), "linked")
	require.NoError(t, os.Symlink(elsewhere, linked))

	assert.Empty(t, Exposure(""), "no URL")
	assert.Empty(t, Exposure("@"+want))
	assert.Contains(t, Exposure("https://ntfy.sh/t"), "command line")
	assert.Contains(t, Exposure("@"+elsewhere), "the agent can read it")
	assert.Contains(t, Exposure("@"+linked), "the agent can read it", "a link out of the folder")
	t.Setenv(URLEnv, "https://ntfy.sh/t")
	assert.Contains(t, Exposure(""), "the agent can read it")
	t.Setenv(URLEnv, "@"+want)
	assert.Empty(t, Exposure(""))
}
