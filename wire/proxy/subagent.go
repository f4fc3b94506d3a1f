package proxy

import (
	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// subagentOrigin picks up the agent's subagent_update announcements for
// what the hub and the desk say of a set's origin: the child's folder (its
// own, else its parent's) and "subagent of <task> in <folder>", so a card,
// its events and the hub's history name the task a subagent works for. It
// only reads.
func subagentOrigin(r *relay.Relay, update func(func(*permission.Origin))) {
	r.FromAgentUpdates(func(m *relay.Message) relay.Verdict {
		if !adapter.IsSubagentUpdate(m) {
			return relay.Pass
		}
		var p struct {
			SessionID string `json:"sessionId"`
			Update    struct {
				SessionUpdate string  `json:"sessionUpdate"`
				SessionID     string  `json:"sessionId"`
				Title         *string `json:"title"`
				Cwd           *string `json:"cwd"`
			} `json:"update"`
		}
		if m.Params(&p) != nil || p.Update.SessionUpdate != "subagent_update" || p.Update.SessionID == "" || p.SessionID == "" {
			return relay.Pass
		}
		update(func(i *permission.Origin) {
			noteSubagent(i, p.SessionID, p.Update.SessionID, p.Update.Title, p.Update.Cwd)
		})
		return relay.Pass
	}, "subagent_update")
}

// noteSubagent records child, announced by parent with a title and a
// folder where given, in i's session maps.
func noteSubagent(i *permission.Origin, parent, child string, title, cwd *string) {
	if i.Sessions == nil {
		i.Sessions = map[string]string{}
	}
	if i.Subagents == nil {
		i.Subagents = map[string]string{}
	}
	folder := i.Sessions[child]
	if cwd != nil {
		folder = *cwd
	}
	if folder == "" {
		folder = i.Sessions[parent]
	}
	if folder != "" {
		i.Sessions[child] = folder
	}
	if _, known := i.Subagents[child]; known && title == nil {
		return // the title omitted: the task is unchanged
	}
	task := parent
	if title != nil && *title != "" {
		task = *title
	}
	label := "subagent of " + task
	if folder != "" {
		label += " in " + folder
	}
	i.Subagents[child] = label
}
