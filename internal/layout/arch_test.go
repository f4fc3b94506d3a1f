package layout

import (
	"go/build"
	"path"
	"path/filepath"
	"testing"
)

// make cross vets each system's code on amd64 alone and only builds arm64:
// that holds while no file of the module is picked by the processor (a
// name ending _arm64.go, a //go:build line naming an architecture), so
// that arm64 would vet exactly the files amd64 does.
func TestNoFileIsPickedByTheProcessor(t *testing.T) {
	root := moduleRoot(t)
	files := goFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("found only %d Go files under %s: the walk is wrong", len(files), root)
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		amd64, arm64 := build.Default, build.Default
		amd64.GOOS, arm64.GOOS = goos, goos
		amd64.GOARCH, arm64.GOARCH = "amd64", "arm64"
		amd64.CgoEnabled, arm64.CgoEnabled = false, false
		for _, rel := range files {
			dir, name := filepath.Join(root, filepath.FromSlash(path.Dir(rel))), path.Base(rel)
			onAMD64, err := amd64.MatchFile(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			onARM64, err := arm64.MatchFile(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			if onAMD64 != onARM64 {
				t.Errorf("%s is built on %s/amd64: %v, on %s/arm64: %v; make cross vets amd64 alone, so it must vet arm64 too", rel, goos, onAMD64, goos, onARM64)
			}
		}
	}
}
