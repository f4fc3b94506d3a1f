package proxy

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/internal/contain"
	"github.com/askbridge/askbridge/internal/sockdir"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/route/hub"
)

// container is --contain's: nil with off. Refused by the system, auto runs
// the agent uncontained (the relay says so), on refuses to start it.
func container(mode contain.Mode, grace time.Duration, sockEnv []string, hubs []string) relay.Container {
	if mode == contain.Off {
		return nil
	}
	opts := contain.Options{Hide: madeFolders(hiddenFolders(hubs)), Keep: keptPaths(sockEnv), Grace: grace}
	return func(cmd *exec.Cmd) (*exec.Cmd, error) {
		init, err := contain.Start(cmd, opts)
		switch {
		case err == nil || !errors.Is(err, contain.ErrRefused):
			return init, err
		case mode == contain.On:
			// Said whole: StartError would quote only the innermost reason.
			return nil, errors.New("--contain on: " + err.Error())
		}
		return nil, fmt.Errorf("%w: %w", relay.ErrNotContained, err)
	}
}

// hiddenFolders are askbridge's folders a contained agent sees empty: its
// sockets' (the hub's socket and inbox, other askbridges' ask sockets), the
// hub's state (history, paired devices), askbridge's config (the hub's
// key), and the folder of a hub socket put elsewhere (hubs: --hub PATH;
// $ASKBRIDGE_HUB).
func hiddenFolders(hubs []string) []string {
	var dirs []string
	if d, err := sockdir.Base(); err == nil {
		dirs = append(dirs, d)
	}
	for _, p := range append(hubs, os.Getenv(hub.SocketEnv)) {
		if p == "" {
			continue
		}
		p, _ = filepath.Abs(p)
		// Only a folder of the user's alone: the hub refuses any other
		// (and hiding /tmp would hide the agent's own files).
		if d := filepath.Dir(p); makeFolder(d) && sockdir.Check(d) == nil {
			dirs = append(dirs, d)
		}
	}
	if p, err := hub.HistoryPath(); err == nil {
		dirs = append(dirs, filepath.Dir(p))
	}
	if d, err := os.UserConfigDir(); err == nil {
		dirs = append(dirs, filepath.Join(d, "askbridge"))
	}
	for i, d := range dirs {
		if r, err := filepath.EvalSymlinks(d); err == nil {
			dirs[i] = r
		}
	}
	return dirs
}

// hubSockets are the hub sockets --hub names by path (its route's).
func hubSockets(routes []route.Route) []string {
	var out []string
	for _, r := range routes {
		if h, ok := r.(hub.Route); ok && h.Socket != "auto" && h.Socket != "off" {
			out = append(out, h.Socket)
		}
	}
	return out
}

// keptPaths is the agent's own ask socket: it stays where it is.
func keptPaths(sockEnv []string) []string {
	var keep []string
	for _, kv := range sockEnv {
		if v, ok := strings.CutPrefix(kv, askwire.SocketEnv+"="); ok {
			if d, err := filepath.EvalSymlinks(filepath.Dir(v)); err == nil {
				v = filepath.Join(d, filepath.Base(v))
			}
			keep = append(keep, v)
		}
	}
	return keep
}

// showContainment puts whether the agent is contained where the desk's and
// the hub's cards read it (permission.Origin.Uncontained), and in the editor's
// own permission requests (the bridge marks them).
func showContainment(bridge *adapter.Bridge, updates ...func(func(*permission.Origin))) func(*relay.Agent) {
	return func(a *relay.Agent) {
		if a.Uncontained() == nil {
			return
		}
		bridge.MarkUncontained(relay.UncontainedWarning)
		for _, u := range updates {
			u(func(i *permission.Origin) { i.Uncontained = relay.UncontainedWarning })
		}
	}
}
