package relay

import "slices"

// UpdateMethod is the notification whose hooks may want some kinds only
// (FromAgentUpdates).
const UpdateMethod = "session/update"

// hookSet is the chain of interceptors of one method, in the order they
// were added. Where a hook wants some update kinds only, the chain of each
// kind is kept ready (byKind), and other kinds take the hooks that want
// them all (anyKind).
type hookSet struct {
	method  string
	hooks   []hook
	fns     []Interceptor // every hook: no hook names kinds
	byKind  map[string][]Interceptor
	anyKind []Interceptor
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
	hs.byKind, hs.anyKind = map[string][]Interceptor{}, nil
	for _, h := range hs.hooks {
		for _, k := range h.kinds {
			hs.byKind[k] = nil
		}
	}
	for _, h := range hs.hooks {
		if h.kinds == nil {
			hs.anyKind = append(hs.anyKind, h.fn)
		}
		for k := range hs.byKind {
			if h.kinds == nil || slices.Contains(h.kinds, k) {
				hs.byKind[k] = append(hs.byKind[k], h.fn)
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
	if fns, ok := hs.byKind[string(m.UpdateKind())]; ok { // no allocation
		return fns
	}
	return hs.anyKind
}
