package permissiontest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/askbridge/askbridge/permission"
)

// Recorded reads one input a real agent sent, by its file name in
// permission/testdata/recorded.
func Recorded(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "permission", "testdata", "recorded", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// moduleRoot is the folder of go.mod above the test's own (go test runs
// a test in its package's folder; make test's -trimpath leaves no source
// path to find it from).
func moduleRoot(t testing.TB) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("permissiontest: no go.mod above the test's folder")
		}
		dir = parent
	}
}

// TwoRecorded is what every recorded input asks, in the question model.
var TwoRecorded = []permission.Question{
	{Question: "Which database should the service use?", Header: "Database",
		Options: []permission.Option{{Label: "Postgres", Description: "relational"}, {Label: "SQLite", Description: "embedded"}}},
	{Question: "Which languages should the service support?", Header: "Languages", Kind: permission.Multi,
		Options: []permission.Option{{Label: "Go", Description: "fast builds"}, {Label: "Rust", Description: "no GC"}, {Label: "Python", Description: "scripts"}}},
}

// CheckRenders validates qs as the bridge does and fails t when a question
// renders as anything but valid JSON: what a dialect's fuzz test asks of
// every input it decodes.
func CheckRenders(t testing.TB, qs []permission.Question) {
	t.Helper()
	permission.ValidateBridged(qs, permission.DefaultLimits())
	for i, q := range qs {
		if !json.Valid(permission.Render(permission.Prompt{SessionID: "s", ToolCallID: "t", Q: q, Index: i, Total: len(qs), Round: 2})) {
			t.Fatal("Render produced invalid JSON")
		}
	}
}
