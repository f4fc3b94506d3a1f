package hubserve

import (
	"net"
	"net/http"
	"path/filepath"

	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/askbridge/askbridge/route/webpush"
)

// started is what the hub's table is started with: its hub and board, the
// page's listener, the askbridges' and the inbox's sockets, the paired devices
// and where pairing codes show.
type started struct {
	hub     *hub.Hub
	board   *permission.Board
	page    net.Listener
	sock    *hub.Listener
	devices *pairing.Devices
	show    *codeShower
}

// table is the hub's answer routes, started in this order from one table
// as the proxy's are: Web Push, which leaves its API for the page; the
// page, which leaves its address for the notifiers and its API for the
// inbox; the terminal inbox; then c.Routes (the notifiers).
func (c *Config) table(s started) []route.Route {
	var dir string // Web Push's keys and subscriptions are beside the history
	if path, err := hub.HistoryPath(); err == nil {
		dir = filepath.Dir(path)
	} else {
		c.Logger.Warn("hub: no Web Push this run", "err", err)
	}
	h := s.hub
	return append([]route.Route{
		webpush.Route{Dir: dir, Options: webpush.Options{DeviceOf: desk.DeviceID, Bare: c.BarePush, Paired: pushPaired(s.devices), Where: pushWhere(s.board)}},
		desk.HubPage{Listener: s.page, Options: desk.Options{Devices: s.devices, ShowCode: s.show.show,
			Routes:    map[string]http.HandlerFunc{"GET /instance": h.ServeInstances, "GET /api/decisions": h.ServeDecisions},
			PublicURL: c.PublicURL, AllowRemote: c.Remote, TLS: c.TLS, Addr: pageAddr(s.page.Addr(), c.TLS), Key: s.sock.Key}},
		hub.InboxRoute{Hub: h, Listener: s.sock, Options: hub.InboxOptions{Approvals: c.InboxApprovals}},
	}, c.Routes...)
}
