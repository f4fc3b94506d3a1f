package desk

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// events streams the board's changes as server-sent events. The stream
// outlives RequestTimeout: each event gets that long to be written instead.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Time{}); err != nil {
		writeError(w, http.StatusInternalServerError, "streaming unsupported: "+err.Error())
		return
	}
	send := func(text string) bool {
		rc.SetWriteDeadline(time.Now().Add(s.opts.RequestTimeout))
		_, err := io.WriteString(w, text)
		return err == nil && rc.Flush() == nil
	}
	// Subscribed before the stream opens: a client that sees it open and
	// then lists the questions misses no event in between.
	events := s.board.Subscribe(r.Context())
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	if !send(": askbridge desk\n\n") {
		return
	}
	for ev := range events {
		b, _ := json.Marshal(wireEvent{Type: ev.Type, Properties: s.toWire(ev.Pending), State: ev.Pending.State})
		if !send(fmt.Sprintf("event: %s\ndata: %s\n\n", ev.Type, b)) {
			return
		}
	}
}

// wireEvent is one server-sent event of GET /event.
type wireEvent struct {
	Type       permission.EventType `json:"type"`
	Properties wirePending          `json:"properties"`
	State      permission.State     `json:"state"`
}
