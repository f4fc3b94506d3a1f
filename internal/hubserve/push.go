package hubserve

import (
	"context"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/askbridge/askbridge/internal/desk"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/internal/webpush"
	"github.com/askbridge/askbridge/permission"
)

// startPush starts the hub's Web Push to the paired browsers that turned it
// on (their page's "Notify this device"), with its keys and subscriptions
// beside the history. It returns the page's push routes (none when there is
// no state folder) and, for the end, a wait for the pushes under way.
func startPush(ctx context.Context, h *hub.Hub, board *permission.Board, devices *pairing.Devices, bare bool, logger *slog.Logger) (map[string]http.HandlerFunc, func()) {
	path, err := hub.HistoryPath()
	var keys webpush.Keys
	var store *webpush.Store
	if err == nil {
		dir := filepath.Dir(path)
		if keys, err = webpush.LoadKeys(filepath.Join(dir, "hub-vapid.json")); err == nil {
			store, err = webpush.OpenStore(filepath.Join(dir, "hub-push.json"))
		}
	}
	if err != nil {
		logger.Warn("hub: no Web Push this run", "err", err)
		return map[string]http.HandlerFunc{}, func() {}
	}
	p := webpush.New(webpush.Options{Keys: keys, Store: store, Logger: logger, DeviceOf: desk.DeviceID, Bare: bare,
		Paired: func() []string {
			var ids []string
			for _, d := range devices.List() {
				ids = append(ids, d.ID)
			}
			return ids
		},
		Where: func(id string) string {
			inst, cwd := h.Origin(id)
			i, _ := inst.(hub.Instance)
			return strings.Join(nonEmpty(i.Agent, cwd, modeWords(i.Mode)), " · ")
		}})
	return p.Routes(), p.Start(ctx, board)
}

// modeWords names the session's mode on a push, marked when the agent
// runs tools without asking in it: as the card says it.
func modeWords(m *hub.SessionMode) string {
	if m == nil || m.ID == "" {
		return ""
	}
	name := m.Name
	if name == "" {
		name = m.ID
	}
	if m.Unasked != "" {
		return "⚠ " + name + " mode"
	}
	return name + " mode"
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
