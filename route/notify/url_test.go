package notify

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The webhook's URL comes from the flag, else the environment; either may
// name a file that holds it, so the topic stays off the command line.
func TestResolveURL(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ntfy")
	require.NoError(t, os.WriteFile(file, []byte("https://ntfy.sh/s3cret-topic\n# a note\n"), 0o600))
	t.Setenv(URLEnv, "")
	for _, c := range []struct{ flag, env, want, err string }{
		{flag: "https://a.example/t", want: "https://a.example/t"},
		{env: "https://b.example/t", want: "https://b.example/t"},
		{flag: "https://a.example/t", env: "https://b.example/t", want: "https://a.example/t"},
		{flag: "@" + file, want: "https://ntfy.sh/s3cret-topic"},
		{env: "@" + file, want: "https://ntfy.sh/s3cret-topic"},
		{flag: "@" + filepath.Join(dir, "missing"), err: "--notify-url @" + filepath.Join(dir, "missing") + ": "},
		{env: "@" + filepath.Join(dir, "missing"), err: URLEnv + " @"},
		{},
	} {
		t.Setenv(URLEnv, c.env)
		got, err := ResolveURL(c.flag)
		if c.err != "" {
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.want, got)
	}
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.WriteFile(empty, []byte("\n"), 0o600))
	_, err := ResolveURL("@" + empty)
	assert.ErrorContains(t, err, "the file is empty")
	if runtime.GOOS != "windows" {
		open := filepath.Join(dir, "open")
		require.NoError(t, os.WriteFile(open, []byte("https://ntfy.sh/t\n"), 0o644))
		_, err := ResolveURL("@" + open)
		assert.ErrorContains(t, err, "other users may read it (mode 0644); chmod 600")
	}
}
