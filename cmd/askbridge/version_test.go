package main

import (
	"strings"
	"testing"
)

// A release build stamps its version with -ldflags "-X main.buildVersion=…";
// the stamp wins over the build info, which says "(devel)" for a checkout
// built with -buildvcs=false.
func TestVersionStamped(t *testing.T) {
	t.Parallel()
	old := buildVersion
	t.Cleanup(func() { buildVersion = old })
	buildVersion = "v1.2.3"
	if got := version(); !strings.HasPrefix(got, "askbridge v1.2.3 (go") {
		t.Errorf("version() = %q, want the stamped v1.2.3", got)
	}
}
