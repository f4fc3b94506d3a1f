//go:build unix

package harness

import (
	"os"
	"runtime"
	"strings"
)

// checkContained says whether askbridge ran the agent contained (its log
// line), and fails the test where it did not on Linux in CI: there the
// live tests are the proof that agents work contained.
func (r *Run) checkContained() {
	log := r.Stderr()
	switch {
	case !strings.Contains(log, `msg="agent started"`):
		return // the agent ran directly
	case strings.Contains(log, "agent contained"):
		r.t.Logf("askbridge ran %s contained", r.Agent.Name)
	case runtime.GOOS == "linux" && os.Getenv("CI") != "":
		r.t.Errorf("askbridge ran %s uncontained in CI:\n%s", r.Agent.Name, tail(log, 2000))
	default:
		r.t.Logf("askbridge ran %s uncontained", r.Agent.Name)
	}
}
