package relay

// A batch is a line holding a JSON array of messages (JSON-RPC 2.0 batches,
// which ACP allows on stdio). The relay looks at each message of it as if
// it had come alone, in order, so no question, response or cancel hides
// in one, and forwards what goes on as one batch: the messages it left
// unchanged as they were, the ones an interceptor replaced as replaced, and
// none that askbridge took (its own responses, requests it answers itself).
// A batch of which nothing changed goes on as the very line it came as. An
// empty array is forwarded as it is: answering it (-32600) is the
// receiver's part, as for any other invalid request.

// batchOut gathers what the messages of one batch forward.
type batchOut struct {
	parts    [][]byte // the messages to forward, in arrival order
	replaced bool     // one of them is not the message as it came
	afters   []func() // the interceptors' After hooks, run once the batch is out
}

// emit forwards one message: at once when it came alone (out is nil), else
// into its batch.
func (r *Relay) emit(to *Peer, line, raw []byte, out *batchOut) {
	if out == nil {
		r.pass(to, line, raw)
		return
	}
	if len(line) != len(raw) || len(line) > 0 && &line[0] != &raw[0] {
		out.replaced = true
	}
	out.parts = append(out.parts, line)
}

// after runs fn once the message's line is out: at once for a message that
// came alone, after the whole batch for one in a batch.
func (o *batchOut) after(fn func()) {
	if o == nil {
		fn()
		return
	}
	o.afters = append(o.afters, fn)
}

// handleBatch routes each message of the batch line and forwards the
// result as one batch.
func (r *Relay) handleBatch(line []byte, from, to *Peer, hooks map[string]*hookSet, sent, answered *pending, msg *Message) {
	r.rec.record(to.dir, line, false)
	elems := batchElems(line)
	if len(elems) == 0 {
		r.pass(to, line, line)
		return
	}
	out := &batchOut{}
	for _, e := range elems {
		r.handle(e, from, to, hooks, sent, answered, msg, out)
	}
	switch {
	case !out.replaced && len(out.parts) == len(elems):
		r.pass(to, line, line)
	case len(out.parts) > 0:
		r.forward(to, joinBatch(out.parts), false)
	default:
		// Every message was askbridge's: nothing goes on (an empty array
		// would be an invalid request).
	}
	for _, fn := range out.afters {
		fn()
	}
}

// batchElems returns the spans of the values of a JSON array that scan has
// already checked, in order; nil for an empty array.
func batchElems(b []byte) [][]byte {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil
	}
	var elems [][]byte
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for i < len(b) {
		start := skipWS(b, i)
		end, err := skipValue(b, start)
		if err != nil {
			return nil
		}
		elems = append(elems, b[start:end:end])
		i = skipWS(b, end)
		if i >= len(b) || b[i] != ',' {
			break
		}
		i++
	}
	return elems
}

// joinBatch writes messages as one array line.
func joinBatch(parts [][]byte) []byte {
	n := 1
	for _, p := range parts {
		n += len(p) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, p := range parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	return append(out, ']')
}
