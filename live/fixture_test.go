//go:build live

package live

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/askbridge/askbridge/conformance"
)

// Conformance fixtures from the Copilot and Kimi runs, as
// gemini_fixture_test.go makes Gemini's: ASKBRIDGE_FIXTURES=DIR makes each
// bridged test listed in its agent's cases write DIR/<file>.txtar from
// askbridge's --record file. Copy them to conformance/testdata and fill the
// want sections with `go test ./conformance -run TestFixtures/<file> -update`.

// fixtureCase is one fixture: its file name and what it proves.
type fixtureCase struct{ file, proves string }

// recordFixture returns the --record flag for a bridged run and registers
// the fixture's writing, once askbridge has exited (register it before the
// run's own cleanup). calls are the MCP tool's question sets, for agents
// that ask through askbridge's MCP tool (nil otherwise); header says which
// agent and client.
func recordFixture(t *testing.T, cases map[string]fixtureCase, header string, calls []string) string {
	t.Helper()
	record := filepath.Join(t.TempDir(), "askbridge-record.jsonl")
	dir, c := os.Getenv("ASKBRIDGE_FIXTURES"), cases[t.Name()]
	if dir == "" || c.file == "" {
		return "--record=" + record
	}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		data, err := os.ReadFile(record)
		if err != nil {
			t.Errorf("fixture %s: %v", c.file, err)
			return
		}
		f, err := conformance.FromRecording(c.file, data)
		if err != nil {
			t.Errorf("fixture %s: %v", c.file, err)
			return
		}
		f.Comment = header + "Proves: " + c.proves + "\n"
		if calls != nil {
			if f.Agent, err = withMCPAsks(f.Agent, calls); err != nil {
				t.Errorf("fixture %s: %v", c.file, err)
				return
			}
			f.Comment += "The _askbridge/ask lines of the agent section stand for the question askbridge's MCP tool sent over the ask socket (see live/gemini_fixture_test.go).\n"
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Error(err)
			return
		}
		path := filepath.Join(dir, c.file+".txtar")
		if err := os.WriteFile(path, f.Format(), 0o644); err != nil {
			t.Error(err)
			return
		}
		t.Logf("wrote %s", path)
	})
	return "--record=" + record
}
