package toychat_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const self = "github.com/askbridge/askbridge/route/toychat"

// The recipe's count (docs/development.md, "Adding an answer route"): the
// toy is one folder and one table line, its test's. No file of the module
// outside the folder imports it, and the board's package, whose gate
// weighs its answers, names it nowhere: what it is, it declared.
func TestTheToyIsOneFolderAndOneTableLine(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	here, _ := filepath.Abs(".")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == here || path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return nil // not this test's concern
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == self {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s imports the toy route: the recipe's route is its folder and its table line alone", rel)
			}
		}
		return nil
	})

	board, err := filepath.Glob(filepath.Join(root, "permission", "*.go"))
	if err != nil || len(board) == 0 {
		t.Fatalf("no board to read (%v)", err)
	}
	for _, f := range board {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); strings.Contains(s, "toychat") || strings.Contains(s, "toy chat") {
			t.Errorf("%s names the toy route: the gate reads what a route declared (permission.NewRoute)", filepath.Base(f))
		}
	}

	test, err := os.ReadFile("toychat_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(test), "[]route.Route{"); n != 1 {
		t.Errorf("the toy's test has %d tables, want the one line", n)
	}
}
