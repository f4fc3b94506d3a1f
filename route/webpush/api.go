package webpush

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Routes are the page's push API, behind its paired session:
// GET /api/push says the hub's VAPID key and whether this device is
// subscribed; PUT /api/push takes its subscription
// ({"endpoint","keys":{"p256dh","auth"}}); DELETE /api/push turns push off
// on this device.
func (p *Pusher) Routes() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /api/push":    p.state,
		"PUT /api/push":    p.subscribe,
		"DELETE /api/push": p.unsubscribe,
	}
}

func (p *Pusher) state(w http.ResponseWriter, r *http.Request) {
	write(w, http.StatusOK, map[string]any{"key": p.opts.Keys.Public, "subscribed": p.opts.Store.Has(p.opts.DeviceOf(r))})
}

// maxBody bounds a subscription's JSON: a push service's endpoint and two
// keys fit in a few hundred bytes.
const maxBody = 8 << 10

func (p *Pusher) subscribe(w http.ResponseWriter, r *http.Request) {
	device := p.opts.DeviceOf(r)
	if device == "" {
		write(w, http.StatusForbidden, map[string]any{"error": "only a paired browser subscribes to pushes", "status": http.StatusForbidden})
		return
	}
	var sub Subscription
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	switch {
	case err != nil:
	case len(b) > maxBody:
		err = fmt.Errorf("over the limit of %d bytes", maxBody)
	default:
		if err = json.Unmarshal(b, &sub); err == nil {
			err = p.guard.check(r.Context(), sub)
		}
	}
	if err != nil {
		write(w, http.StatusBadRequest, map[string]any{"error": "subscription: " + err.Error(), "status": http.StatusBadRequest})
		return
	}
	if err := p.opts.Store.Set(device, sub); err != nil {
		write(w, http.StatusInternalServerError, map[string]any{"error": err.Error(), "status": http.StatusInternalServerError})
		return
	}
	p.opts.Logger.Info("web push: a device subscribed", "device", device)
	write(w, http.StatusOK, map[string]any{"subscribed": true})
}

func (p *Pusher) unsubscribe(w http.ResponseWriter, r *http.Request) {
	device := p.opts.DeviceOf(r)
	if err := p.opts.Store.Remove(device); err != nil {
		write(w, http.StatusInternalServerError, map[string]any{"error": err.Error(), "status": http.StatusInternalServerError})
		return
	}
	p.opts.Logger.Info("web push: turned off on a device", "device", device)
	write(w, http.StatusOK, map[string]any{"subscribed": false})
}

func write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
