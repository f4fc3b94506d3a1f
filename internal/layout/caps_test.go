package layout

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// The caps, and the one function allowed past its cap: the relay's byte
// scanner, a state machine that reads better whole.
const (
	maxFileLines = 300
	maxFuncLines = 80
	maxCmdLines  = 1500
	// maxBridgeFiles bounds the bridge's own folder, adapter/ (its
	// non-test Go files): what is not the bridge (the ask socket, the
	// recording, the v2 wire, ...) lives in a package of its own beside it.
	maxBridgeFiles = 20
)

var longFuncAllowed = map[string]bool{"adapter/relay.skipValue": true}

// moduleRoot is two folders up from this package.
func moduleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(filepath.Dir(wd))
}

// goFiles are the module's Go files, relative to root, skipping what is
// not the project's (node_modules, .cache, testdata).
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "testdata", "dist", "bin":
				return filepath.SkipDir
			}
			if strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestSizeCaps(t *testing.T) {
	root := moduleRoot(t)
	fset := token.NewFileSet()
	cmdLines := 0
	files := goFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("found only %d Go files under %s: the walk is wrong", len(files), root)
	}
	for _, rel := range files {
		f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		lines := fset.File(f.Pos()).LineCount()
		if lines > maxFileLines {
			t.Errorf("%s has %d lines: the cap is %d (split it by concern)", rel, lines, maxFileLines)
		}
		if strings.HasPrefix(rel, "cmd/askbridge/") && !strings.HasSuffix(rel, "_test.go") {
			cmdLines += lines
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n > maxFuncLines && !longFuncAllowed[path.Dir(rel)+"."+fn.Name.Name] {
				t.Errorf("%s: func %s has %d lines: the cap is %d", rel, fn.Name.Name, n, maxFuncLines)
			}
		}
	}
	if cmdLines > maxCmdLines {
		t.Errorf("cmd/askbridge has %d lines of production code: the cap is %d (composition belongs in a wiring package)", cmdLines, maxCmdLines)
	}
	t.Logf("%d Go files; cmd/askbridge %d production lines", len(files), cmdLines)
}

// The bridge stays alone in adapter/: a concern that grows there moves to a
// package of its own under it.
func TestTheBridgeFolderStaysSmall(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(moduleRoot(t), "adapter"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	if len(files) == 0 {
		t.Fatal("no Go files in adapter/: the path is wrong")
	}
	if len(files) > maxBridgeFiles {
		t.Errorf("adapter/ has %d non-test Go files: the cap is %d (move a cohesive group to a package of its own): %s",
			len(files), maxBridgeFiles, strings.Join(files, " "))
	}
}
