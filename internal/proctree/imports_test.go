package proctree

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The relay, which knows nothing of ACP or of askbridge's other packages,
// may import this one (its boundary test allows it) because this one
// imports none of them either.
func TestProctreeImportsNothingOfAskbridge(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 4 {
		t.Fatalf("no Go files found: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(path, "github.com/askbridge/askbridge/") ||
				strings.HasPrefix(path, "github.com/coder/acp-go-sdk") {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}
