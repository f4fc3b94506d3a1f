package hub

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A crafted history line cannot make the ids that follow it overflow: an
// instance id beyond permission.MaxRestored is not taken up, and the next
// askbridge's id counts on from the lines that are sane.
func TestACraftedHistoryLineCannotOverflowIDs(t *testing.T) {
	file := filepath.Join(t.TempDir(), "hub-history.jsonl")
	lines := keptLine(1) + "\n" +
		`{"set":{"id":"q2","sessionID":"a9223372036854775807/s","questions":[],"round":1,"state":"cancelled"},"cwd":"/src"}` + "\n"
	require.NoError(t, os.WriteFile(file, []byte(lines), 0o600))
	store, err := OpenStore(file, nil)
	require.NoError(t, err)
	path := socket(t)
	h, hb, _ := startHub(t, path)
	h.Keep(store)
	b, _ := report(t, path, "/src/web")
	ask(b, "s", "Which port?")
	p := waitPending(t, hb, 1)[0]
	id, _, _ := strings.Cut(p.SessionID, "/")
	n, err := strconv.ParseInt(strings.TrimPrefix(id, "a"), 10, 64)
	require.NoError(t, err, p.SessionID)
	assert.Equal(t, int64(2), n, "the next instance after a1, the sane line's")
}
