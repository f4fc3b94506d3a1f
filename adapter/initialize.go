package adapter

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/askbridge/askbridge/adapter/acpv2"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

// initCaps is the part of initialize the bridge reads. form and url stay
// raw: only an object advertises a mode (Claude offers AskUserQuestion for
// "form":{} but not for "form":true), and the SDK's struct would refuse
// true outright. v1 names them clientInfo and clientCapabilities, v2 info
// and capabilities (package acpv2).
type initCaps struct {
	ProtocolVersion json.RawMessage `json:"protocolVersion"`
	ClientInfo      struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
	ClientCapabilities elicitCaps `json:"clientCapabilities"`
	Info               struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"info"`
	Capabilities elicitCaps `json:"capabilities"`
}

type elicitCaps struct {
	Elicitation struct {
		Form json.RawMessage `json:"form"`
		URL  json.RawMessage `json:"url"`
	} `json:"elicitation"`
	// Subagents is v1's opt-in to child sessions (package subagent).
	Subagents json.RawMessage `json:"subagents"`
}

// isObject reports whether a raw value is a JSON object.
func isObject(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// onInitialize remembers whether the client renders forms itself, and
// advertises what the dialects need when the client lacks it, in the shape
// of the version the client asks for. Only the params' members on the
// patched paths are re-encoded; the rest of the message goes on as it
// came. The agent's answer settles the version askbridge speaks on this
// connection (acpv2.Conn.Agree).
func (b *Bridge) onInitialize(m *relay.Message) relay.Verdict {
	var p initCaps
	if err := m.Params(&p); err != nil {
		return relay.Pass
	}
	asked := acpv2.Asked(p.ProtocolVersion)
	caps, name, version := p.ClientCapabilities, p.ClientInfo.Name, p.ClientInfo.Version
	if asked >= acpv2.V2 {
		caps, name, version = p.Capabilities, p.Info.Name, p.Info.Version
	}
	hasForm, hasURL := isObject(caps.Elicitation.Form), isObject(caps.Elicitation.URL)
	b.mu.Lock()
	b.clientForm, b.clientURL = hasForm, hasURL
	b.mu.Unlock()
	b.proto.Reset()
	b.subs.OptIn(isObject(caps.Subagents))
	b.noteClient(name, version)
	b.logger.Info("client initialize", "protocolVersion", asked, "clientRendersForms", hasForm, "clientRendersURLs", hasURL, "advertise", b.opts.Advertise)
	v := b.advertise(m, asked)
	v.OnResponse = func(resp json.RawMessage) json.RawMessage {
		if b.proto.Agree(asked, resp) && b.relay != nil {
			b.relay.Client.SetOwn(b.ownRewrite)
		}
		return nil
	}
	return v
}

// ownRewrite is what askbridge's own requests and notifications to the
// client go through once initialize is answered: a child's session named
// as its root for a client without subagents, then v2's shapes on v2.
func (b *Bridge) ownRewrite(msg json.RawMessage) json.RawMessage {
	v2 := b.proto.V2()
	out := b.subs.ToParent(msg, v2)
	if v2 {
		src := msg
		if out != nil {
			src = out
		}
		if r := acpv2.Own(src); r != nil {
			out = r
		}
	}
	return out
}

// advertise adds the dialects' defaults to the client's initialize, and
// for a client asking a version askbridge does not speak, asks the agent
// for the highest one it does: askbridge never lets the two sides agree on
// what it cannot carry across.
func (b *Bridge) advertise(m *relay.Message, asked int) relay.Verdict {
	var patches []patch
	if b.opts.Advertise {
		for _, d := range b.dialects {
			a, ok := d.(dialect.Advertiser)
			if !ok || !b.forThisAgent(d) {
				continue
			}
			for _, def := range a.Advertise() {
				patches = append(patches, patch{path: acpv2.CapsPath(def.Path, asked), value: def.Value})
			}
		}
	}
	if asked > acpv2.Max {
		patches = append(patches, patch{path: []string{"protocolVersion"}, value: json.RawMessage(strconv.Itoa(acpv2.Max)), replace: true})
	}
	if len(patches) == 0 {
		return relay.Pass
	}
	return relay.RewriteParams(func(raw json.RawMessage) (json.RawMessage, error) {
		var err error
		for _, d := range patches {
			if raw, err = setDefault(raw, d.path, d.value, d.replace); err != nil {
				return nil, err
			}
		}
		return raw, nil
	})(m)
}

// forThisAgent reports whether d's defaults go to this agent: an
// agent-specific dialect's (dialect.Targeted) only to its own agent, or to
// a command that names no agent askbridge knows (Options.Agent).
func (b *Bridge) forThisAgent(d dialect.Dialect) bool {
	t, ok := d.(dialect.Targeted)
	if !ok || dialect.AdvertiseTo(t.Agent(), b.opts.Agent) {
		return true
	}
	b.logger.Debug("not advertising another agent's defaults", "dialect", d.Name(), "for", t.Agent(), "agent", dialect.CommandNames(b.opts.Agent))
	return false
}

// patch is one member advertise sets in initialize's params.
type patch struct {
	path    []string
	value   json.RawMessage
	replace bool // set it whatever is there
}

// setDefault sets obj[path...] = v unless it is present (or whatever is
// there, with replace), creating objects on the way.
func setDefault(obj json.RawMessage, path []string, v json.RawMessage, replace bool) (json.RawMessage, error) {
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
		if ok && !replace && sameKind(cur, v) {
			return obj, nil
		}
		m[path[0]] = v
	default:
		next, err := setDefault(cur, path[1:], v, replace)
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
