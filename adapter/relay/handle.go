package relay

import "bytes"

// handle routes one message; out, when non-nil, gathers the messages of a
// batch to forward (batch.go) instead of forwarding each.
func (r *Relay) handle(line []byte, from, to *Peer, hooks map[string]*hookSet, sent, answered *pending, msg *Message, out *batchOut) {
	raw := line // as read: forwarded from the reader's buffer while unchanged
	h, err := scan(line)
	if err != nil {
		r.logger.Warn("malformed line", "from", from.name, "err", err, "line", preview(line))
		from.ReplyError(nil, &Error{Code: CodeParseError, Message: "Parse error: " + err.Error()})
		return
	}
	if out == nil {
		if h.batch {
			r.handleBatch(line, from, to, hooks, sent, answered, msg)
			return
		}
		r.rec.record(to.dir, line, false)
	}
	switch {
	case h.method == nil && h.id != nil:
		r.handleResponse(h, line, raw, from, to, answered, out)
	case h.method == nil:
		r.emit(to, line, raw, out)
	default:
		r.handleCall(h, line, raw, from, to, hooks, sent, msg, out)
	}
}

// handleResponse passes on a message with an id and no method: a response
// to askbridge's own request stays with askbridge; one to a request
// forwarded goes to its requester, through the request's OnResponse, once.
func (r *Relay) handleResponse(h header, line, raw []byte, from, to *Peer, answered *pending, out *batchOut) {
	key := IDKey(h.id)
	if ours, stray := from.deliver(key, line); ours {
		if stray != "" {
			r.logger.Debug("dropped a stray response to askbridge's request", "from", from.name, "id", string(h.id), "request", stray)
		}
		return
	}
	if !h.isResponse() {
		r.emit(to, line, raw, out)
		return
	}
	r.mu.Lock()
	f, ok := answered.take(key)
	r.mu.Unlock()
	if !ok && key != "null" {
		// A second answer, or one to a request never forwarded (or
		// already failed): the requester has its one response. An
		// error to id null answers no request and goes on.
		r.logger.Warn("dropped a response to no request waiting for it", "from", from.name, "id", preview(h.id))
		return
	}
	if f.onResponse != nil {
		if rewritten := f.onResponse(line); rewritten != nil {
			if len(rewritten) == 0 {
				return // Drop: an interceptor answers the request itself
			}
			line = rewritten
		}
	}
	r.emit(to, line, raw, out)
}

// handleCall passes on a request or a notification through the hooks of
// its method, and counts a request as sent, awaiting its response.
func (r *Relay) handleCall(h header, line, raw []byte, from, to *Peer, hooks map[string]*hookSet, sent *pending, msg *Message, out *batchOut) {
	var v Verdict
	hs := from.hooksOf(hooks, h.method)
	if hs != nil {
		*msg = Message{From: from, Method: hs.method, ID: h.id, Raw: line}
		if fns := hs.chainOf(msg); len(fns) > 0 {
			v = chain(fns, msg)
		}
		*msg = Message{} // keep no line alive
	}
	if v.Take {
		if v.After != nil {
			out.after(v.After)
		}
		return
	}
	if v.Replace != nil {
		line = v.Replace
	}
	if h.id != nil {
		f := forwarded{id: bytes.Clone(h.id), method: methodName(h.method), onResponse: v.OnResponse}
		r.mu.Lock()
		gone := sent.add(IDKey(h.id), f)
		r.mu.Unlock()
		if gone != nil {
			r.answerInstead(from, f, gone)
			return
		}
	}
	r.emit(to, line, raw, out)
	if v.After != nil {
		out.after(v.After)
	}
}

// hooksOf is hooks' set for method, remembering the last set found: a
// stream of one method (an agent's session/update) is told its hooks by
// comparing a few bytes, not by hashing the method into the map each line.
// No allocation either way.
func (p *Peer) hooksOf(hooks map[string]*hookSet, method []byte) *hookSet {
	if hs := p.lastHooks; hs != nil && string(method) == hs.method {
		return hs
	}
	hs := hooks[string(method)]
	if hs == nil && bytes.IndexByte(method, '\\') >= 0 {
		hs = hooks[methodName(method)]
	}
	if hs != nil {
		p.lastHooks = hs
	}
	return hs
}
