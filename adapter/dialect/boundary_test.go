package dialect_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
)

const module = "github.com/askbridge/askbridge/"

// Each dialect is a package under adapter/dialect that imports the API
// (this package) and nothing of the bridge or of another dialect, as
// database/sql's drivers: so a dialect cannot reach into the bridge's
// state, and adding one touches its folder, a fixture and the table. The
// API itself imports neither the bridge nor any dialect.
func TestDialectsImportNeitherTheBridgeNorEachOther(t *testing.T) {
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	bad := crossings(t, ".", "")
	dialects := 0
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "testdata" {
			bad = append(bad, crossings(t, d.Name(), d.Name())...)
			dialects++
		}
	}
	for _, b := range bad {
		t.Error(b)
	}
	if dialects < 7 {
		t.Fatalf("found only %d dialect folders: is this adapter/dialect?", dialects)
	}
}

// A dialect that imports the bridge, or another dialect, is caught.
func TestTheBoundaryCatchesACrossing(t *testing.T) {
	for _, imp := range []string{module + "adapter", module + "adapter/dialect/qwen"} {
		dir := t.TempDir()
		src := "package mine\n\nimport _ " + strconv.Quote(imp) + "\n"
		if err := os.WriteFile(filepath.Join(dir, "mine.go"), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := crossings(t, dir, "mine"); len(got) != 1 {
			t.Errorf("importing %s: got %q, want one crossing", imp, got)
		}
	}
}

// crossings lists the imports of dir's non-test files that leave the
// dialect's side: the bridge (adapter), or a dialect other than self.
func crossings(t *testing.T, dir, self string) []string {
	t.Helper()
	var out []string
	for _, imp := range testenv.Imports(t, dir) {
		rest, ok := strings.CutPrefix(imp.Path, module)
		if !ok {
			continue
		}
		other, inDialects := strings.CutPrefix(rest, "adapter/dialect/")
		switch {
		case rest == "adapter":
			out = append(out, imp.File+" imports the bridge ("+imp.Path+")")
		case inDialects && other != self:
			out = append(out, imp.File+" imports another dialect ("+imp.Path+")")
		}
	}
	return out
}
