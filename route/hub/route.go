package hub

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/askbridge/askbridge/route"
)

// Route is this askbridge's reporter to the hub as a route: Socket is what
// --hub says, auto (the usual socket, whenever a hub is there), off, or a
// socket's path.
type Route struct{ Socket string }

// Name is route.Route's.
func (Route) Name() string { return "hub" }

// Start reports env's board to the hub until env.Ctx ends. The agent's
// command names it until its initialize does.
func (h Route) Start(env *route.Env) (route.Running, error) {
	path := h.Socket
	switch path {
	case "off":
		return route.Off("--hub off"), nil
	case "auto", "":
		path = SocketPath()
	}
	rep := Report(env.Ctx, env.Board, path, Self(env.Command), env.Logger)
	env.Hear = append(env.Hear, rep.Update) // the hub's cards say where sets come from
	return &Reporting{Reporter: rep, path: path}, nil
}

// Reporting is a started Route: it can answer while a hub is connected.
type Reporting struct {
	*Reporter
	path string
}

// Where is route.Running's.
func (r *Reporting) Where() string {
	if r.Connected() {
		return "the hub at " + r.path
	}
	return ""
}

// Missing is route.Running's.
func (r *Reporting) Missing() string {
	return fmt.Sprintf("no hub is connected at %s (is `askbridge hub` running, and is that its socket?)", r.path)
}

// Showing is route.Running's: the hub's page and inbox show the set.
func (r *Reporting) Showing() bool { return r.Connected() }

// Close is route.Running's: the reporter ends with the context it started
// with.
func (r *Reporting) Close() {}

// Self is what an askbridge says of itself before the client does: the
// agent's command, its pid, host and folders.
func Self(command []string) Instance {
	host, _ := os.Hostname()
	cwd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	return Instance{Agent: filepath.Base(command[0]), PID: os.Getpid(), Host: host, CWD: cwd, Home: home}
}
