package proxy

import (
	"cmp"
	"encoding/json"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Origin is setup with hooks that pick up where sets come from and hand it
// to each of updates: the agent's and the client's names from initialize,
// each session's folder. Installed once however many read it; the hooks
// only read, and never change or hold up a message.
func Origin(setup func(*relay.Relay) func(), updates ...func(func(*permission.Origin))) func(*relay.Relay) func() {
	update := func(fn func(*permission.Origin)) {
		for _, u := range updates {
			u(fn)
		}
	}
	return func(r *relay.Relay) func() {
		r.FromClient("initialize", func(m *relay.Message) relay.Verdict {
			var p struct {
				ClientInfo *implementation `json:"clientInfo"`
				Info       *implementation `json:"info"` // v2's name for it
			}
			if m.Params(&p) == nil && p.ClientInfo == nil {
				p.ClientInfo = p.Info
			}
			if p.ClientInfo.name() != "" {
				update(func(i *permission.Origin) { i.Client = p.ClientInfo.name() })
			}
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				var r struct {
					Result struct {
						AgentInfo *implementation `json:"agentInfo"`
						Info      *implementation `json:"info"` // v2's name for it
					} `json:"result"`
				}
				if json.Unmarshal(resp, &r) == nil && r.Result.AgentInfo == nil {
					r.Result.AgentInfo = r.Result.Info
				}
				if r.Result.AgentInfo.name() != "" {
					update(func(i *permission.Origin) {
						i.Agent, i.AgentVersion = r.Result.AgentInfo.name(), r.Result.AgentInfo.Version
					})
				}
				return nil
			}}
		})
		folder := func(session, cwd string) {
			if session != "" && cwd != "" {
				update(func(i *permission.Origin) {
					if i.Sessions == nil {
						i.Sessions = map[string]string{}
					}
					i.Sessions[session] = cwd
				})
			}
		}
		r.FromClient("session/new", func(m *relay.Message) relay.Verdict {
			var p struct{ CWD string }
			m.Params(&p)
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				var r struct {
					Result struct{ SessionID string }
				}
				if json.Unmarshal(resp, &r) == nil {
					folder(r.Result.SessionID, p.CWD)
				}
				return nil
			}}
		})
		for _, method := range []string{"session/load", "session/resume"} {
			r.FromClient(method, func(m *relay.Message) relay.Verdict {
				var p struct{ SessionID, CWD string }
				if m.Params(&p) == nil {
					folder(p.SessionID, p.CWD)
				}
				return relay.Pass
			})
		}
		subagentOrigin(r, update) // subagent.go
		return setup(r)
	}
}

// implementation is ACP's clientInfo and agentInfo.
type implementation struct{ Name, Title, Version string }

// name is the human one when there is one.
func (i *implementation) name() string {
	if i == nil {
		return ""
	}
	return cmp.Or(i.Title, i.Name)
}
