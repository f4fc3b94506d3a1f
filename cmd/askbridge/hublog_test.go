package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/route/hub"
)

// askbridge hub log answers "who approved that?" from the hub's state
// folder, as text and as the raw JSON lines.
func TestHubLogPrintsTheDecisions(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	path, err := hub.DecisionsPath()
	require.NoError(t, err)
	l, err := decisions.Open(path, 0)
	require.NoError(t, err)
	require.NoError(t, l.Append(decisions.Record{Time: time.Now(), Set: "q1", Kind: "approval", Asked: "git push --force", Digest: "sha256:ab",
		Outcome: "answered", Answer: "Always allow", Lasting: true, Route: "hub", Device: "Pixel 8", WaitedMs: 42000, Agent: "claude", CWD: "/src/app"}))
	require.NoError(t, l.Append(decisions.Record{Time: time.Now(), Set: "q2", Kind: "approval", Asked: "rm -rf data", Outcome: "answered", Answer: "Reject",
		Reason: "move it to archive/", Route: "terminal"}))

	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"hub", "log"}, strings.NewReader(""), &out, &errOut), errOut.String())
	text := out.String()
	assert.Contains(t, text, "git push --force")
	assert.Contains(t, text, "answered on the hub's page (Pixel 8) after 42s", "the route in permission.Sources' words")
	assert.Contains(t, text, "answered at askbridge's terminal prompt after 0s")
	assert.Contains(t, text, "Always allow (lasting)")
	assert.Contains(t, text, "reason: move it to archive/")

	out.Reset()
	require.Equal(t, 0, run([]string{"hub", "log", "--json", "-n", "1"}, strings.NewReader(""), &out, &errOut), errOut.String())
	assert.Equal(t, 1, strings.Count(out.String(), "\n"))
	assert.Contains(t, out.String(), `"reason":"move it to archive/"`)

	out.Reset()
	require.Equal(t, 0, run([]string{"hub", "log", "--json"}, strings.NewReader(""), &out, &errOut), errOut.String())
	assert.Equal(t, 2, strings.Count(out.String(), "\n"))
	assert.Contains(t, out.String(), `"route":"hub"`, "the hub's page, as docs/desk-and-hub.md says")

	assert.Equal(t, 2, run([]string{"hub", "log", "extra"}, strings.NewReader(""), &out, &errOut))
}
