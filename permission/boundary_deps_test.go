package permission_test

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// The boundaries hold through every path, not only direct imports: a
// route that reaches a dialect through a helper (the inbox once did,
// through wire/askuser to asktool) crosses as surely as one that
// imports it. go list -deps says, for each operating system askbridge
// ships for.
func TestNoRouteReachesTheAgentsSideThroughAnyPath(t *testing.T) {
	for goos, deps := range allDeps(t) {
		for pkg, list := range deps {
			if !isRoute(pkg) {
				continue
			}
			for _, d := range list {
				if crossing(routeOf(pkg), d) != "" && routeOf(d) != routeOf(pkg) {
					t.Errorf("%s: %s reaches %s through its imports: a route reaches the agents only through the board, and another route only as declared", goos, pkg, d)
				}
			}
		}
	}
}

// composition are the packages that put askbridge together, the command
// and the wiring wing: nothing on the agents' side, the board, the routes
// or the conformance suite reaches them.
var composition = []string{"cmd", "wire"}

func TestNothingReachesUpIntoAComposition(t *testing.T) {
	for goos, deps := range allDeps(t) {
		for pkg, list := range deps {
			if !under(pkg, "adapter", "conformance", "permission", "route", "internal") {
				continue
			}
			for _, d := range list {
				if under(d, composition...) {
					t.Errorf("%s: %s reaches the composition package %s", goos, pkg, d)
				}
			}
		}
	}
}

// The test wing (testkit/: the fake model server, throwaway certificates,
// the test environment) is for tests: no package askbridge ships with
// reaches it.
func TestNothingShippedReachesTheTestWing(t *testing.T) {
	for goos, deps := range allDeps(t) {
		for pkg, list := range deps {
			if under(pkg, "testkit") {
				continue
			}
			for _, d := range list {
				if under(d, "testkit") {
					t.Errorf("%s: %s reaches the test wing's %s", goos, pkg, d)
				}
			}
		}
	}
}

// internal/ holds leaf libraries: none reaches a wing above it (the
// agents' side, a route, the wiring, the conformance suite); the board's
// types it may use.
func TestInternalHoldsLeafLibraries(t *testing.T) {
	for goos, deps := range allDeps(t) {
		for pkg, list := range deps {
			if !under(pkg, "internal") {
				continue
			}
			for _, d := range list {
				if under(d, "adapter", "route", "wire", "cmd", "conformance", "testkit") {
					t.Errorf("%s: the library %s reaches %s: internal/ is for leaf libraries", goos, pkg, d)
				}
			}
		}
	}
}

// isRoute says whether pkg is a route or in one's folder.
func isRoute(pkg string) bool { return routeOf(pkg) != "" }

// routeOf is the route pkg is in, or "".
func routeOf(pkg string) string {
	for _, r := range routes {
		if under(pkg, r) {
			return r
		}
	}
	return ""
}

func under(pkg string, roots ...string) bool {
	for _, r := range roots {
		if pkg == r || strings.HasPrefix(pkg, r+"/") {
			return true
		}
	}
	return false
}

// allDeps is, per GOOS, each module package's module-relative transitive
// imports (tests left out), as go list -deps reads them.
func allDeps(t *testing.T) map[string]map[string][]string {
	testenv.SkipUnderWine(t, testenv.NoGoToolchain)
	oses := []string{"linux", "darwin", "windows"}
	out := make([]map[string][]string, len(oses))
	errs := make([]error, len(oses))
	var wg sync.WaitGroup
	for i, goos := range oses {
		wg.Go(func() { out[i], errs[i] = depsFor(goos) })
	}
	wg.Wait()
	all := map[string]map[string][]string{}
	for i, goos := range oses {
		if errs[i] != nil {
			t.Fatalf("go list for %s: %v", goos, errs[i])
		}
		all[goos] = out[i]
	}
	return all
}

func depsFor(goos string) (map[string][]string, error) {
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0")
	b, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		fields := strings.Fields(line)
		pkg, ok := strings.CutPrefix(fields[0], module)
		if !ok {
			continue
		}
		for _, d := range fields[1:] {
			if rel, ok := strings.CutPrefix(d, module); ok {
				deps[pkg] = append(deps[pkg], rel)
			}
		}
	}
	return deps, nil
}
