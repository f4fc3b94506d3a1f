package hubctl

import (
	"fmt"
	"io"

	"github.com/askbridge/askbridge/internal/contain"
)

// RefusedInside refuses a hub command (`askbridge hub`, `hub pair`, `hub
// devices`, `hub revoke`) run inside an agent's container, where it is the
// agent's tools that run it: a hub there would make a key and pair devices
// of the agent's, and show its codes to the agent. How askbridge knows,
// and what it cannot know, is contain.Inside's.
func RefusedInside(cmd string, stderr io.Writer) bool {
	inside, why := contain.Inside()
	if inside {
		fmt.Fprintf(stderr, "%s: refused: this runs inside an agent's askbridge container (%s); run it in your own terminal\n", cmd, why)
	}
	return inside
}
