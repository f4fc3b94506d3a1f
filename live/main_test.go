//go:build live

package live

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/askbridge/askbridge/testkit/fakemodel"
)

func TestMain(m *testing.M) {
	if err := harness.Installed(); err != nil {
		fmt.Fprintln(os.Stderr, "live tests:", err)
		os.Exit(1)
	}
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

var (
	buildOnce sync.Once
	buildDir  string
	buildBin  string
	buildErr  error
)

// askbridge returns the askbridge binary the proxied runs use:
// $ASKBRIDGE_BIN, else one built once with -race from this checkout, so a
// data race in the proxy fails the live run too. -trimpath, as make test
// compiles: its race-instrumented packages are then in Go's cache and this
// build only links (CI runs two parts of the suite at once, each building
// its own).
func askbridge(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("ASKBRIDGE_BIN"); bin != "" {
		return bin
	}
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "askbridge-live-bin")
		if buildErr != nil {
			return
		}
		buildBin = filepath.Join(buildDir, "askbridge")
		cmd := exec.Command("go", "build", "-race", "-trimpath", "-o", buildBin, "./cmd/askbridge")
		cmd.Dir = filepath.Dir(harness.LiveDir())
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building askbridge: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildBin
}

// model starts a fake model scripted to call tool with calls, closed at
// the end of the test.
func model(t *testing.T, tool string, calls ...string) *fakemodel.Server {
	t.Helper()
	script := fakemodel.Script{Tool: tool}
	for _, c := range calls {
		script.Calls = append(script.Calls, []byte(c))
	}
	m, err := fakemodel.Start(script, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}
