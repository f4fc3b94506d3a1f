package relay

import "encoding/json"

// Rewrite turns a whole JSON-RPC message into the one to send instead; nil
// keeps it.
type Rewrite func(msg json.RawMessage) json.RawMessage

// SetOwn installs fn on the requests and notifications askbridge itself
// sends this peer (Call, Notify), not on the lines it forwards nor on its
// responses: the bridge speaks a version of the protocol the other side
// agreed to, which the relay does not know. Nil removes it.
func (p *Peer) SetOwn(fn Rewrite) {
	if fn == nil {
		p.own.Store(nil)
		return
	}
	p.own.Store(&fn)
}

func (p *Peer) rewriteOwn(b []byte) []byte {
	fn := p.own.Load()
	if fn == nil || len(b) == 0 || b[0] != '{' || !isOwnRequest(b) {
		return b
	}
	if out := (*fn)(b); out != nil {
		return out
	}
	return b
}

// isOwnRequest reports whether b is a request or notification (responses
// go out through respond, never here, but a check costs little).
func isOwnRequest(b []byte) bool {
	h, err := scan(b)
	return err == nil && h.method != nil
}
