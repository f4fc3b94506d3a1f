package proctree

import (
	"strings"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// The relay, which knows nothing of ACP or of askbridge's other packages,
// may import this one (its boundary test allows it) because this one
// imports none of them either.
func TestProctreeImportsNothingOfAskbridge(t *testing.T) {
	for _, imp := range testenv.Imports(t, ".") {
		if strings.HasPrefix(imp.Path, "github.com/askbridge/askbridge/") ||
			strings.HasPrefix(imp.Path, "github.com/coder/acp-go-sdk") {
			t.Errorf("%s imports %s", imp.File, imp.Path)
		}
	}
}
