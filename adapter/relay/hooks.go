package relay

import "slices"

// UpdateMethod is the notification whose hooks may want some kinds only
// (FromAgentUpdates).
const UpdateMethod = "session/update"

// BeforeAgentRead adds fn to what runs on the agent's reading goroutine
// before it reads more from the agent, once every line read so far is
// handled and forwarded: until then the reader's buffer, which the Raw of
// the agent's messages points into, is left as it is. An interceptor of
// the agent's messages may so keep Raw (or a part of it) past its return,
// without a copy, and copy what it still wants in fn: a line dropped
// before is never copied. fn must not block. Call before Start.
func (r *Relay) BeforeAgentRead(fn func()) {
	r.beforeAgentRead = append(r.beforeAgentRead, fn)
}

// hookSet is the chain of interceptors of one method, in the order they
// were added. Where a hook wants some update kinds only, the chain of each
// kind is kept ready (byKind), and other kinds take the hooks that want
// them all (anyKind).
type hookSet struct {
	method  string
	hooks   []hook
	fns     []Interceptor // every hook: no hook names kinds
	byKind  []kindChain   // nil: no hook names kinds
	anyKind []Interceptor
}

// kindChain is the chain of one update kind. The kinds named are few (a
// handful): comparing the kind with each, most at their first byte or
// length, costs a message less than hashing it for a map.
type kindChain struct {
	kind string
	fns  []Interceptor
}

// hook is one interceptor and the update kinds it wants (nil: all).
type hook struct {
	fn    Interceptor
	kinds []string
}

func addHook(hooks map[string]*hookSet, method string, fn Interceptor, kinds []string) {
	hs := hooks[method]
	if hs == nil {
		hs = &hookSet{method: method}
		hooks[method] = hs
	}
	hs.hooks = append(hs.hooks, hook{fn: fn, kinds: kinds})
	hs.fns = append(hs.fns, fn)
	if kinds == nil && hs.byKind == nil {
		return
	}
	// Some hook names kinds: the chains by kind, in the order added.
	hs.byKind, hs.anyKind = []kindChain{}, nil
	for _, h := range hs.hooks {
		for _, k := range h.kinds {
			if !slices.ContainsFunc(hs.byKind, func(c kindChain) bool { return c.kind == k }) {
				hs.byKind = append(hs.byKind, kindChain{kind: k})
			}
		}
	}
	for _, h := range hs.hooks {
		if h.kinds == nil {
			hs.anyKind = append(hs.anyKind, h.fn)
		}
		for i := range hs.byKind {
			if h.kinds == nil || slices.Contains(h.kinds, hs.byKind[i].kind) {
				hs.byKind[i].fns = append(hs.byKind[i].fns, h.fn)
			}
		}
	}
}

// chainOf is the chain m goes through: by its update kind where some hook
// wants some kinds only.
func (hs *hookSet) chainOf(m *Message) []Interceptor {
	if hs.byKind == nil {
		return hs.fns
	}
	kind := m.UpdateKind()
	for i := range hs.byKind {
		if string(kind) == hs.byKind[i].kind { // no allocation
			return hs.byKind[i].fns
		}
	}
	return hs.anyKind
}
