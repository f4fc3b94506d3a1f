package relay_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The relay knows JSON-RPC and nothing of ACP or of the bridge: none of
// its files imports the ACP SDK or another package of askbridge's, so no
// question dialect can creep into it. The one exception, the OS's process
// tree (internal/proctree), imports nothing of askbridge's itself
// (proctree's own test holds that).
func TestTheRelayImportsNothingOfACPOrTheBridge(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files found: %v", err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/coder/acp-go-sdk") ||
				strings.HasPrefix(path, "github.com/askbridge/askbridge/") && path != "github.com/askbridge/askbridge/internal/proctree" {
				t.Errorf("%s imports %s: the relay must stay JSON-RPC only", f, path)
			}
		}
		checked++
	}
	if checked < 10 {
		t.Fatalf("checked only %d files: is this the relay's folder?", checked)
	}
}
