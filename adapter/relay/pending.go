package relay

import "encoding/json"

// pending holds the requests one direction forwarded, awaiting their
// response, by IDKey. Each takes exactly one response: a second answer to
// the same id finds nothing and is dropped, so a requester never gets two
// responses to one request. A peer that reuses an id still pending gets one
// response per request, in the order it sent them; that rare case lives in
// more, so that the common one costs one map entry.
type pending struct {
	first map[string]forwarded
	more  map[string][]forwarded
	// gone, once set, is the error every request gets instead of being
	// forwarded: the side that would answer it has left.
	gone *Error
}

func newPending() *pending {
	return &pending{first: map[string]forwarded{}}
}

// add tracks f; the caller holds r.mu. It returns the error to answer
// with instead when the other side has gone.
func (p *pending) add(key string, f forwarded) *Error {
	if p.gone != nil {
		return p.gone
	}
	if _, dup := p.first[key]; !dup {
		p.first[key] = f
		return nil
	}
	if p.more == nil {
		p.more = map[string][]forwarded{}
	}
	p.more[key] = append(p.more[key], f)
	return nil
}

// take removes the oldest request with key; the caller holds r.mu.
func (p *pending) take(key string) (forwarded, bool) {
	f, ok := p.first[key]
	if !ok {
		return f, false
	}
	if next := p.more[key]; len(next) > 0 {
		p.first[key] = next[0]
		if len(next) == 1 {
			delete(p.more, key)
		} else {
			p.more[key] = next[1:]
		}
	} else {
		delete(p.first, key)
	}
	return f, true
}

// fail marks the answering side gone with e (unless it was already) and
// returns every request still waiting; the caller holds r.mu.
func (p *pending) fail(e *Error) []forwarded {
	if p.gone == nil {
		p.gone = e
	}
	out := make([]forwarded, 0, len(p.first))
	for k, f := range p.first {
		out = append(out, f)
		out = append(out, p.more[k]...)
	}
	clear(p.first)
	clear(p.more)
	return out
}

// errClientGone is what the agent's requests get once the client has left:
// nobody will answer them.
func errClientGone() *Error {
	return Internal("askbridge: the client disconnected before answering", nil)
}

// clientLeft answers every request forwarded to the client, and every later
// one, with an error: the agent must not wait for an answer that cannot
// come.
func (r *Relay) clientLeft() {
	r.mu.Lock()
	waiting := r.toClient.fail(errClientGone())
	r.mu.Unlock()
	for _, f := range waiting {
		r.logger.Debug("the client left; failing a request forwarded to it", "method", f.method, "id", string(f.id))
		r.answerInstead(r.Agent, f, errClientGone())
	}
}

// answerInstead answers a forwarded request f, whose response will not
// come, with e. The request's response hooks see the error as if the
// other side had sent it, and may rewrite it or answer themselves (Drop).
func (r *Relay) answerInstead(requester *Peer, f forwarded, e *Error) {
	if f.onResponse != nil {
		// By hand, as Peer.respond does: the id goes back as it was spelt.
		body, err := json.Marshal(e)
		if err == nil {
			line := append(append([]byte(`{"jsonrpc":"2.0","id":`), f.id...), `,"error":`...)
			line = append(append(line, body...), '}')
			if out := f.onResponse(line); out != nil {
				if len(out) > 0 {
					requester.rec.record(requester.dir, out, true)
					r.forward(requester, out, true)
				}
				return
			}
		}
	}
	if err := requester.ReplyError(f.id, e); err != nil {
		r.logger.Debug("write failed", "to", requester.name, "err", err)
	}
}
