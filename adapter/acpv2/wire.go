package acpv2

import (
	"context"
	"encoding/json"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/relay"
)

// What changes on the wire for what askbridge itself says to a v2 client
// (protocol/v2/migration): a permission request has a required title and
// an optional subject holding the tool call, where v1 had the tool call
// alone; the tool_call update is gone (the first tool_call_update of an id
// creates the call); a foreground turn waiting on the user is the
// session's state, requires_action. Everything else askbridge sends (its
// options, their kinds, _meta, forms) is the same in both.

// permissionToV2 turns v1 session/request_permission params into v2's:
// title the tool call's title, description its text (the question and its
// options, for a client that shows no subject), subject the tool call.
// Params already in v2's shape, or unreadable, are kept (nil).
func permissionToV2(params json.RawMessage) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p["toolCall"] == nil || p["subject"] != nil {
		return nil
	}
	var tc struct {
		Title   string `json:"title"`
		Content []struct {
			Content struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"content"`
	}
	json.Unmarshal(p["toolCall"], &tc)
	title := tc.Title
	if title == "" {
		title = "Question"
	}
	var text []string
	for _, c := range tc.Content {
		if c.Content.Text != "" {
			text = append(text, c.Content.Text)
		}
	}
	subject, err := json.Marshal(struct {
		Type     string          `json:"type"`
		ToolCall json.RawMessage `json:"toolCall"`
	}{"tool_call", p["toolCall"]})
	if err != nil {
		return nil
	}
	delete(p, "toolCall")
	p["subject"] = subject
	p["title"], _ = json.Marshal(title)
	if len(text) > 0 {
		p["description"], _ = json.Marshal(strings.Join(text, "\n\n"))
	}
	out, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	return out
}

// updateToV2 turns a v1 tool_call session update into v2's
// tool_call_update, which creates the call; other updates are kept (nil).
func updateToV2(params json.RawMessage) json.RawMessage {
	var p struct {
		SessionID json.RawMessage            `json:"sessionId"`
		Update    map[string]json.RawMessage `json:"update"`
		Meta      json.RawMessage            `json:"_meta,omitempty"`
	}
	if json.Unmarshal(params, &p) != nil || string(p.Update["sessionUpdate"]) != `"tool_call"` {
		return nil
	}
	p.Update["sessionUpdate"] = json.RawMessage(`"tool_call_update"`)
	out, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	return out
}

// stateUpdate is v2's foreground state update of a session.
type stateUpdate struct {
	SessionUpdate string `json:"sessionUpdate"`
	State         string `json:"state"`
}

// WaitOnUser tells a v2 client that the session's foreground work waits
// on the user (requires_action) while a question set of it is asked, and
// once the set is settled (the func returned) that it runs again, unless
// ctx ended (a session/cancel or shutdown: the agent reports the idle
// state itself). On v1, or with no relay, it does nothing: v1 has no
// such state.
func (c *Conn) WaitOnUser(ctx context.Context, r *relay.Relay, session string) func() {
	if session == "" || r == nil || !c.V2() {
		return func() {}
	}
	notifyState(r.Client, session, "requires_action")
	return func() {
		if ctx.Err() == nil {
			notifyState(r.Client, session, "running")
		}
	}
}

func notifyState(client *relay.Peer, session, state string) {
	client.Notify(acp.ClientMethodSessionUpdate, struct {
		SessionID string      `json:"sessionId"`
		Update    stateUpdate `json:"update"`
	}{session, stateUpdate{SessionUpdate: "state_update", State: state}})
}

// Own rewrites a request or notification askbridge itself sends the
// client into v2's shape; nil keeps it.
var Own relay.Rewrite = func(msg json.RawMessage) json.RawMessage {
	var env map[string]json.RawMessage
	if json.Unmarshal(msg, &env) != nil {
		return nil
	}
	var method string
	json.Unmarshal(env["method"], &method)
	var params json.RawMessage
	switch method {
	case "session/request_permission":
		params = permissionToV2(env["params"])
	case "session/update":
		params = updateToV2(env["params"])
	}
	if params == nil {
		return nil
	}
	env["params"] = params
	out, err := json.Marshal(env)
	if err != nil {
		return nil
	}
	return out
}
