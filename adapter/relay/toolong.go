package relay

import (
	"encoding/json"
	"fmt"
)

// refuse answers a line longer than the relay's MaxLine, which goes no
// further. Only its first bytes were kept, so what it was is read from
// them: the sender of a request gets an error reply to its id, or to id
// null when the id is not among them (as for a line that cannot be
// parsed); a notification is logged; so is a response, and the request it
// answers gets the error in its place, so that nothing waits for ever.
func (r *Relay) refuse(long *lineTooLong, from, to *Peer, answered *pending) {
	h, cut := headerOf(long)
	e := &Error{Code: CodeInvalidRequest, Message: fmt.Sprintf(
		"askbridge: refused a message of %d bytes from the %s: the limit (--max-line) is %d bytes", long.size, from.name, r.maxLine)}
	log := r.logger.With("from", from.name, "bytes", long.size, "max", r.maxLine)
	if h.method != nil {
		log = log.With("method", methodName(h.method))
	}
	if h.id != nil {
		log = log.With("id", string(h.id))
	}
	switch {
	case h.response || cut == "result" || cut == "error":
		log.Warn("refused a response longer than --max-line; its request gets an error instead")
		if h.id == nil {
			return
		}
		key := IDKey(h.id)
		line, _ := json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *Error          `json:"error"`
		}{"2.0", h.id, e})
		if ours, _ := from.deliver(key, line); ours {
			return
		}
		r.mu.Lock()
		f, ok := answered.take(key)
		r.mu.Unlock()
		if ok {
			r.answerInstead(to, f, e)
		}
	case h.id != nil:
		log.Warn("refused a request longer than --max-line")
		from.ReplyError(h.id, e)
	case h.method != nil && long.complete:
		log.Warn("refused a notification longer than --max-line")
	default:
		log.Warn("refused a line longer than --max-line; its id is not in its first bytes")
		from.ReplyError(nil, e)
	}
}

// headerOf reads the header of a line too long to keep from its first
// bytes, and names the top-level member they end in, if any.
func headerOf(long *lineTooLong) (header, string) {
	if long.complete {
		if h, err := scan(long.prefix); err == nil {
			return h, ""
		}
	}
	return scanPrefix(long.prefix)
}

// scanPrefix is scan for the first bytes of a line: it reads the top-level
// members that end within b, and returns the name of the one b ends in ("",
// when it ends elsewhere or b is not an object). A value that reaches the
// end of b may go on past it (a number), so it does not count.
func scanPrefix(b []byte) (h header, cut string) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return h, ""
	}
	h.object = true
	i = skipWS(b, i+1)
	for i < len(b) && b[i] != '}' {
		ks, ke, err := stringSpan(b, i)
		if err != nil {
			return h, ""
		}
		key := b[ks:ke]
		i = skipWS(b, ke+1)
		if i >= len(b) || b[i] != ':' {
			return h, string(key)
		}
		vs := skipWS(b, i+1)
		ve, err := skipValue(b, vs)
		if err != nil || ve == len(b) && (b[vs] == '-' || '0' <= b[vs] && b[vs] <= '9') {
			return h, string(key)
		}
		switch string(key) {
		case "method":
			if b[vs] == '"' {
				h.method = b[vs+1 : ve-1]
			}
		case "id":
			h.id = b[vs:ve]
		case "result", "error":
			h.response = true
		}
		i = skipWS(b, ve)
		if i >= len(b) || b[i] != ',' {
			return h, ""
		}
		i = skipWS(b, i+1)
	}
	return h, ""
}
