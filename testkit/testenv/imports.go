package testenv

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Import is one import of a package's file.
type Import struct {
	File string // the file, as dir joined with its name
	Path string // the import path, as written
}

// Imports lists the imports of dir's non-test Go files, whatever their
// build tags, for the tests that hold the packages' boundaries. A dir with
// no Go file fails the test: a boundary over nothing holds nothing.
func Imports(t testing.TB, dir string) []Import {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s (%v)", dir, err)
	}
	var out []Import
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range parsed.Imports {
			p, _ := strconv.Unquote(s.Path.Value)
			out = append(out, Import{File: f, Path: p})
		}
	}
	return out
}
