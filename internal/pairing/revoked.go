package pairing

import "sync"

// revokeHooks are what runs when a device is revoked: the servers that
// close its connections and streams at once.
type revokeHooks struct {
	mu    sync.Mutex
	hooks []func(id string)
}

// OnRevoke runs f with the id of each device revoked from now on, before
// Revoke returns: a server closes the device's connections and streams
// there. f must not call d's methods.
func (d *Devices) OnRevoke(f func(id string)) {
	d.revoked.mu.Lock()
	defer d.revoked.mu.Unlock()
	d.revoked.hooks = append(d.revoked.hooks, f)
}

func (h *revokeHooks) run(id string) {
	h.mu.Lock()
	hooks := h.hooks
	h.mu.Unlock()
	for _, f := range hooks {
		f(id)
	}
}
