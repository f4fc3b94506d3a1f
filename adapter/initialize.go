package adapter

import (
	"bytes"
	"encoding/json"

	"github.com/askbridge/askbridge/adapter/relay"
)

// initCaps is the part of initialize the bridge reads. form and url stay
// raw: only an object advertises a mode (Claude offers AskUserQuestion for
// "form":{} but not for "form":true), and the SDK's struct would refuse
// true outright.
type initCaps struct {
	ClientInfo struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
	ClientCapabilities struct {
		Elicitation struct {
			Form json.RawMessage `json:"form"`
			URL  json.RawMessage `json:"url"`
		} `json:"elicitation"`
	} `json:"clientCapabilities"`
}

// isObject reports whether a raw value is a JSON object.
func isObject(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// onInitialize remembers whether the client renders forms itself, and
// advertises what the dialects need when the client lacks it. Only the
// params' members on the patched paths are re-encoded; the rest of the
// message goes on as it came.
func (b *Bridge) onInitialize(m *relay.Message) relay.Verdict {
	var p initCaps
	if err := m.Params(&p); err != nil {
		return relay.Pass
	}
	hasForm, hasURL := isObject(p.ClientCapabilities.Elicitation.Form), isObject(p.ClientCapabilities.Elicitation.URL)
	b.mu.Lock()
	b.clientForm, b.clientURL = hasForm, hasURL
	b.mu.Unlock()
	b.noteClient(p.ClientInfo.Name, p.ClientInfo.Version)
	b.logger.Info("client initialize", "clientRendersForms", hasForm, "clientRendersURLs", hasURL, "advertise", b.opts.Advertise)
	if !b.opts.Advertise {
		return relay.Pass
	}
	var defaults []Default
	for _, d := range b.dialects {
		if a, ok := d.(Advertiser); ok {
			defaults = append(defaults, a.Advertise()...)
		}
	}
	if len(defaults) == 0 {
		return relay.Pass
	}
	return relay.RewriteParams(func(raw json.RawMessage) (json.RawMessage, error) {
		var err error
		for _, d := range defaults {
			if raw, err = setDefault(raw, d.Path, d.Value); err != nil {
				return nil, err
			}
		}
		return raw, nil
	})(m)
}

// setDefault sets obj[path...] = v unless it is present, creating objects
// on the way.
func setDefault(obj json.RawMessage, path []string, v json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if len(obj) > 0 && !bytes.Equal(obj, []byte("null")) {
		if err := json.Unmarshal(obj, &m); err != nil {
			return nil, err
		}
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	cur, ok := m[path[0]]
	switch {
	case len(path) == 1:
		if ok && sameKind(cur, v) {
			return obj, nil
		}
		m[path[0]] = v
	default:
		next, err := setDefault(cur, path[1:], v)
		if err != nil {
			return nil, err
		}
		m[path[0]] = next
	}
	return json.Marshal(m)
}

// sameKind reports whether a present value already says what v would:
// an object where an object is wanted, true where true is.
func sameKind(cur, v json.RawMessage) bool {
	cur = bytes.TrimSpace(cur)
	if len(cur) == 0 {
		return false
	}
	if v[0] == '{' {
		return cur[0] == '{'
	}
	return bytes.Equal(cur, v)
}
