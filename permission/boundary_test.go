package permission_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
)

const module = "github.com/askbridge/askbridge/"

// The board sits in the middle: the agents' side (the bridge in adapter
// and the packages beside it, the dialects under adapter/dialect) on one
// hand, the routes a person answers through on the other. The import
// graph says so: dialects → bridge → board ← routes, and nothing imports
// back up.
var (
	// routes are the answer routes, each a folder of route/ (the desk, the
	// hub and its reporter, the notifiers and their taps, Web Push, the
	// terminal inbox, the TTY prompter, the recipe's toy chat): one added
	// there is held to the boundary with no line here. route/ itself is
	// the routes' door, on the board's side.
	routes = routeFolders()
	// allowed are the route-to-route imports there are reasons for: the
	// inbox is the hub's terminal client (it dials the hub's inbox
	// socket) and draws with the TTY prompter's widgets.
	allowed = map[[2]string]string{
		{"route/inbox", "route/hub"}:    "the hub's terminal client",
		{"route/inbox", "route/prompt"}: "the prompter's widgets",
	}
)

func routeFolders() []string {
	var out []string
	subs, _ := os.ReadDir("../route")
	for _, d := range subs {
		if d.IsDir() && d.Name() != "testdata" {
			out = append(out, "route/"+d.Name())
		}
	}
	return out
}

func TestTheRouteWingHoldsTheRoutes(t *testing.T) {
	for _, want := range []string{"route/desk", "route/hub", "route/notify", "route/webpush", "route/inbox", "route/prompt", "route/toychat"} {
		if !slices.Contains(routes, want) {
			t.Errorf("%s is not a folder of route/ (found %v): the walk or the layout is wrong", want, routes)
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

// The routes' door (route: the interface and the table's start)
// is on the board's side too: it imports no route and no dialect.
func TestTheRoutesDoorImportsNoSide(t *testing.T) {
	for _, imp := range imports(t, "../route") {
		if side(imp) != "" {
			t.Errorf("route imports %s (%s): the door imports no side", imp, side(imp))
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
		{"route/desk", "adapter", true},
		{"route/hub", "adapter/dialect/qwen", true},
		{"route/hub", "adapter/asksocket", true},
		{"route/desk", "adapter/relay", false},
		{"route/notify", "route/desk", true},
		{"route/inbox", "route/hub", false},
		{"route/desk", "permission", false},
		{"route/desk", "route", false},
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
