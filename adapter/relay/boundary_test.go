package relay_test

import (
	"strings"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// The relay knows JSON-RPC and nothing of ACP or of the bridge: none of
// its files imports the ACP SDK or another package of askbridge's, so no
// question dialect can creep into it. The two exceptions, the OS's process
// tree (internal/proctree) and whether there is a terminal to leave
// (internal/ctty), import nothing of askbridge's themselves (their own
// tests hold that).
func TestTheRelayImportsNothingOfACPOrTheBridge(t *testing.T) {
	allowed := map[string]bool{"github.com/askbridge/askbridge/internal/proctree": true, "github.com/askbridge/askbridge/internal/ctty": true}
	files := map[string]bool{}
	for _, imp := range testenv.Imports(t, ".") {
		files[imp.File] = true
		if strings.HasPrefix(imp.Path, "github.com/coder/acp-go-sdk") ||
			strings.HasPrefix(imp.Path, "github.com/askbridge/askbridge/") && !allowed[imp.Path] {
			t.Errorf("%s imports %s: the relay must stay JSON-RPC only", imp.File, imp.Path)
		}
	}
	checked := len(files)
	if checked < 10 {
		t.Fatalf("checked only %d files: is this the relay's folder?", checked)
	}
}
