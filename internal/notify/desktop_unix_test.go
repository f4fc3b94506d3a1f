//go:build unix

package notify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeNotifier puts a script called name on an otherwise empty PATH; each
// call writes its arguments, one a line, to a file of its own in dir.
func fakeNotifier(t *testing.T, name, extra string) (dir string) {
	dir = t.TempDir()
	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.Mkdir(bin, 0o755))
	// Written aside and moved, so that a reader never sees half a call.
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \"" + dir + "/tmp.$$\"\n" +
		"/bin/mv \"" + dir + "/tmp.$$\" \"" + dir + "/call.$$\"\n" + extra
	require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755))
	t.Setenv("PATH", bin)
	return dir
}

// calls returns the arguments of every call so far.
func calls(t *testing.T, dir string) [][]string {
	files, _ := filepath.Glob(filepath.Join(dir, "call.*"))
	var out [][]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		out = append(out, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
	}
	return out
}
