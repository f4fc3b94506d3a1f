package desk

import (
	"encoding/json"
	"net/http"
)

// Revoking a device from a page takes that page's passkey, where it has
// one: a session taken from a browser's profile cannot unpair the user's
// other devices (and so lock them out) without the user's finger. A page
// revoking itself needs nothing more than its session.

// revokeKey is the challenge key of dev revoking target.
func revokeKey(dev, target string) string { return dev + " revoke " + target }

// needsPasskey says whether r's device must show its passkey to revoke
// target.
func needsPasskey(r *http.Request, target string) bool {
	dev := device(r)
	return dev.Passkey != nil && target != dev.ID
}

// revokePresence: POST /api/devices/{id}/presence. The options of the
// passkey assertion revoking device id takes from this page, or
// {"noPasskey":true} when it takes none.
func (s *Server) revokePresence(w http.ResponseWriter, r *http.Request) {
	target := r.PathValue("id")
	if !needsPasskey(r, target) {
		writeJSON(w, http.StatusOK, map[string]bool{"noPasskey": true})
		return
	}
	s.beginPresence(w, r, revokeKey(device(r).ID, target), 0, nil, "")
}

// revokeDevice: DELETE /api/devices/{id}, with {"assertion"} from a page
// that has a passkey. The device's connections and event streams close at
// once (conns.go).
func (s *Server) revokeDevice(w http.ResponseWriter, r *http.Request) {
	target := r.PathValue("id")
	if needsPasskey(r, target) {
		var body struct{ Assertion json.RawMessage }
		if r.ContentLength != 0 {
			if err := decodeBody(r, &body); err != nil {
				writeError(w, http.StatusBadRequest, err.Error())
				return
			}
		}
		if err := s.checkPresence(r, revokeKey(device(r).ID, target), 0, nil, "", body.Assertion); err != nil {
			refuse(w, http.StatusForbidden, "revoking another device: "+err.Error())
			return
		}
	}
	if target == device(r).ID { // its answer goes out on this connection, closed after
		s.conns.Disown(r)
		w.Header().Set("Connection", "close")
	}
	if err := s.opts.Devices.Revoke(target); err != nil {
		writeError(w, http.StatusNotFound, err.Error())
		return
	}
	s.logger.Info("desk: a device was revoked", "device", target, "by", device(r).ID)
	writeJSON(w, http.StatusOK, true)
}
