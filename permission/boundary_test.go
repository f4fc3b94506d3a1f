package permission_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/internal/testenv"
)

const module = "github.com/askbridge/askbridge/"

// The board sits in the middle: the agents' side (the bridge in adapter
// and the packages beside it, the dialects under adapter/dialect) on one
// hand, the routes a person answers through on the other. The import
// graph says so: dialects → bridge → board ← routes, and nothing imports
// back up.
var (
	// routes are the answer routes: the desk, the hub and its reporter,
	// the notifiers and their taps, Web Push, the terminal inbox, the TTY
	// prompter.
	routes = []string{"internal/desk", "internal/hub", "internal/notify", "internal/webpush", "internal/inbox", "internal/prompt"}
	// allowed are the route-to-route imports there are reasons for: the
	// inbox is the hub's terminal client (it dials the hub's inbox
	// socket) and draws with the TTY prompter's widgets.
	allowed = map[[2]string]string{
		{"internal/inbox", "internal/hub"}:    "the hub's terminal client",
		{"internal/inbox", "internal/prompt"}: "the prompter's widgets",
	}
)

// Every folder under internal/route is a route too (the recipe's toy
// chat): one added there is held to the boundary with no line here.
func init() {
	subs, _ := os.ReadDir("../internal/route")
	for _, d := range subs {
		if d.IsDir() && d.Name() != "testdata" {
			routes = append(routes, "internal/route/"+d.Name())
		}
	}
}

func TestTheBoardImportsNoSide(t *testing.T) {
	for _, imp := range imports(t, ".") {
		if side(imp) != "" {
			t.Errorf("permission imports %s (%s): the board imports no side", imp, side(imp))
		}
	}
}

// The routes' door (internal/route: the interface and the table's start)
// is on the board's side too: it imports no route and no dialect.
func TestTheRoutesDoorImportsNoSide(t *testing.T) {
	for _, imp := range imports(t, "../internal/route") {
		if side(imp) != "" {
			t.Errorf("internal/route imports %s (%s): the door imports no side", imp, side(imp))
		}
	}
}

func TestRoutesImportNeitherTheAgentsSideNorEachOther(t *testing.T) {
	for _, r := range routes {
		for _, imp := range imports(t, filepath.Join("..", r)) {
			if msg := crossing(r, imp); msg != "" {
				t.Error(msg)
			}
		}
	}
}

func TestDialectsAndTheBridgeImportNoRoute(t *testing.T) {
	var dirs []string
	err := filepath.WalkDir("../adapter", func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir():
			dirs = append(dirs, strings.TrimPrefix(filepath.ToSlash(path), "../"))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 15 {
		t.Fatalf("found only %d folders under adapter: the walk is wrong", len(dirs))
	}
	for _, d := range dirs {
		for _, imp := range imports(t, filepath.Join("..", d)) {
			if side(imp) == "route" {
				t.Errorf("%s imports the route %s: the agents' side reaches people only through the board", d, imp)
			}
		}
	}
}

// The check catches a route that imports a dialect, the bridge or another
// route, and lets the declared pairs be.
func TestTheRouteBoundaryCatchesACrossing(t *testing.T) {
	for _, c := range []struct {
		from, imp string
		caught    bool
	}{
		{"internal/desk", "adapter", true},
		{"internal/hub", "adapter/dialect/qwen", true},
		{"internal/hub", "adapter/asksocket", true},
		{"internal/desk", "adapter/relay", false},
		{"internal/notify", "internal/desk", true},
		{"internal/inbox", "internal/hub", false},
		{"internal/desk", "permission", false},
		{"internal/desk", "internal/route", false},
	} {
		if got := crossing(c.from, c.imp) != ""; got != c.caught {
			t.Errorf("%s importing %s: caught %v, want %v", c.from, c.imp, got, c.caught)
		}
	}
}

// crossing says why route r may not import imp, or "".
func crossing(r, imp string) string {
	switch side(imp) {
	case "agents":
		return r + " imports " + imp + ": a route reaches the agents only through the board"
	case "route":
		if imp != r {
			if _, ok := allowed[[2]string{r, imp}]; !ok {
				return r + " imports the route " + imp + ": routes are plug-ins, each on its own"
			}
		}
	}
	return ""
}

// side names the side of the graph an import (module-relative) is on.
func side(imp string) string {
	switch {
	case imp == "adapter/relay" || strings.HasPrefix(imp, "adapter/relay/"):
		return "" // below both sides: JSON-RPC lines, no ACP
	case imp == "adapter" || strings.HasPrefix(imp, "adapter/"):
		return "agents" // the bridge, its packages, the dialects
	}
	for _, r := range routes {
		if imp == r {
			return "route"
		}
	}
	return ""
}

// imports lists the module-relative imports of dir's non-test Go files,
// whatever their build tags.
func imports(t *testing.T, dir string) []string {
	var out []string
	for _, imp := range testenv.Imports(t, dir) {
		if rel, ok := strings.CutPrefix(imp.Path, module); ok {
			out = append(out, rel)
		}
	}
	return out
}
