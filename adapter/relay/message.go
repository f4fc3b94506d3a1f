package relay

import (
	"bytes"
	"encoding/json"
)

// Message is a request or notification passing through the relay. Raw is
// the line as it arrived and must not be modified; it is only valid during
// the interceptor call, so an interceptor that keeps the message past its
// return keeps a Clone (or, on the agent's side, copies Raw by the
// relay's next read: BeforeAgentRead).
type Message struct {
	From   *Peer           // the side that sent it
	Method string          // the method name
	ID     json.RawMessage // the raw id; nil for a notification
	Raw    json.RawMessage // the whole message

	// Claimed is for the interceptors of one method to tell each other
	// that one of them has claimed the message while letting it pass; the
	// relay sets it false for each message.
	Claimed bool

	kind     []byte // UpdateKind, once read
	session  []byte // its session, where the kind was read at once
	kindRead bool
}

// Params decodes the params member into v.
func (m *Message) Params(v any) error {
	var env struct {
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(m.Raw, &env); err != nil {
		return err
	}
	if env.Params == nil {
		env.Params = json.RawMessage("null")
	}
	return json.Unmarshal(env.Params, v)
}

// Clone copies the message so it outlives the read loop's buffer.
func (m *Message) Clone() *Message {
	c := *m
	c.ID = bytes.Clone(m.ID)
	c.Raw = bytes.Clone(m.Raw)
	c.kind, c.session, c.kindRead = nil, nil, false // read again from the copy
	return &c
}

// Verdict is what an interceptor decides about a message.
type Verdict struct {
	// Replace, when non-nil, is forwarded instead of the message: a whole
	// JSON-RPC message on one line. A request must keep its id.
	Replace json.RawMessage
	// Take means askbridge answers the request itself, or consumes the
	// notification: nothing is forwarded.
	Take bool
	// OnResponse, on a forwarded request, sees the response before it goes
	// back and returns the line to forward instead, nil to keep it, or Drop
	// to forward nothing (the interceptor answers the request itself).
	OnResponse func(resp json.RawMessage) json.RawMessage
	// After, when set, runs once the message is forwarded (or, taken, once
	// what came before it in its batch is): whatever it writes to the same
	// side comes after that.
	After func()
}

// Interceptor sees a request or notification on the relay's reading
// goroutine, in arrival order. It must not block: work that waits (asking the
// user) runs on a goroutine of its own, with a Clone of the message.
type Interceptor func(m *Message) Verdict

// Drop, returned by an OnResponse hook, keeps the response from its
// requester: whoever returns it must answer the request another way.
var Drop = json.RawMessage{}

// Pass is the verdict that forwards a message unchanged.
var Pass = Verdict{}

// RewriteParams returns an interceptor that forwards the message with its
// params replaced by fn's result; fn returning nil or an error forwards the
// original (the error is logged by the caller of fn, if wanted).
func RewriteParams(fn func(params json.RawMessage) (json.RawMessage, error)) Interceptor {
	return func(m *Message) Verdict {
		var env map[string]json.RawMessage
		if err := json.Unmarshal(m.Raw, &env); err != nil {
			return Pass
		}
		out, err := fn(env["params"])
		if err != nil || out == nil {
			return Pass
		}
		env["params"] = out
		b, err := json.Marshal(env)
		if err != nil {
			return Pass
		}
		return Verdict{Replace: b}
	}
}

// methodName returns the method as a string, unescaping if it must.
func methodName(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &s) != nil {
		return string(raw)
	}
	return s
}

// chain runs the interceptors of one method in order. The first that takes
// the message claims it (with its After): the rest are not asked. One that replaces the
// message hands its replacement to the next, which sees it as if it had
// arrived so. Every OnResponse of the chain sees the response, in chain
// order, each getting what the one before returned.
func chain(fns []Interceptor, m *Message) Verdict {
	if len(fns) == 1 {
		return fns[0](m)
	}
	var out Verdict
	var hooks []func(json.RawMessage) json.RawMessage
	for _, fn := range fns {
		v := fn(m)
		if v.Take {
			return Verdict{Take: true, After: v.After}
		}
		if v.Replace != nil {
			out.Replace = v.Replace
			m.Raw, m.kind, m.session, m.kindRead = v.Replace, nil, nil, false
		}
		if v.OnResponse != nil {
			hooks = append(hooks, v.OnResponse)
		}
		if v.After != nil {
			if prev := out.After; prev != nil {
				out.After = func() { prev(); v.After() }
			} else {
				out.After = v.After
			}
		}
	}
	switch len(hooks) {
	case 0:
	case 1:
		out.OnResponse = hooks[0]
	default:
		out.OnResponse = func(resp json.RawMessage) json.RawMessage {
			changed := false
			for _, h := range hooks {
				if r := h(resp); r != nil {
					if len(r) == 0 {
						return Drop
					}
					resp, changed = r, true
				}
			}
			if !changed {
				return nil
			}
			return resp
		}
	}
	return out
}
