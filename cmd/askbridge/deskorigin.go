package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/permission"
)

// selfOrigin is what an askbridge's own desk says of where its sets come
// from, as the hub says it of every askbridge: the agent and the editor
// (from initialize) and each session's folder, so the desk's page names
// its agent and folder instead of a session id.
type selfOrigin struct {
	board *permission.Board
	mu    sync.Mutex
	inst  hub.Instance
}

func newSelfOrigin(board *permission.Board, command []string) *selfOrigin {
	host, _ := os.Hostname()
	cwd, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	return &selfOrigin{board: board, inst: hub.Instance{Agent: filepath.Base(command[0]), PID: os.Getpid(), Host: host, CWD: cwd, Home: home,
		Sessions: map[string]string{}}}
}

// origin is desk.Options.Origin.
func (o *selfOrigin) origin(id string) (any, string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	inst := o.inst
	inst.Sessions = nil
	cwd := inst.CWD
	if p, ok := o.board.Get(id); ok && o.inst.Sessions[p.SessionID] != "" {
		cwd = o.inst.Sessions[p.SessionID]
	}
	return inst, cwd
}

// setup reads the names and folders on the way; it never changes or holds
// up a message.
func (o *selfOrigin) setup(next func(*relay.Relay) func()) func(*relay.Relay) func() {
	return func(r *relay.Relay) func() {
		r.FromClient("initialize", func(m *relay.Message) relay.Verdict {
			var p struct {
				ClientInfo *implementation `json:"clientInfo"`
			}
			if m.Params(&p) == nil && p.ClientInfo.name() != "" {
				o.update(func(i *hub.Instance) { i.Client = p.ClientInfo.name() })
			}
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				var r struct {
					Result struct {
						AgentInfo *implementation `json:"agentInfo"`
					} `json:"result"`
				}
				if json.Unmarshal(resp, &r) == nil && r.Result.AgentInfo.name() != "" {
					o.update(func(i *hub.Instance) { i.Agent, i.AgentVersion = r.Result.AgentInfo.name(), r.Result.AgentInfo.Version })
				}
				return nil
			}}
		})
		r.FromClient("session/new", func(m *relay.Message) relay.Verdict {
			var p struct{ CWD string }
			m.Params(&p)
			return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				var r struct {
					Result struct{ SessionID string }
				}
				if json.Unmarshal(resp, &r) == nil && r.Result.SessionID != "" && p.CWD != "" {
					o.update(func(i *hub.Instance) { i.Sessions[r.Result.SessionID] = p.CWD })
				}
				return nil
			}}
		})
		for _, method := range []string{"session/load", "session/resume"} {
			r.FromClient(method, func(m *relay.Message) relay.Verdict {
				var p struct{ SessionID, CWD string }
				if m.Params(&p) == nil && p.SessionID != "" && p.CWD != "" {
					o.update(func(i *hub.Instance) { i.Sessions[p.SessionID] = p.CWD })
				}
				return relay.Pass
			})
		}
		return next(r)
	}
}

func (o *selfOrigin) update(fn func(*hub.Instance)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	fn(&o.inst)
}
