package acpv2

import (
	"bytes"
	"encoding/json"

	"github.com/askbridge/askbridge/adapter/relay"
)

// MCP is a v2 agent's capabilities.session.mcp: an object (even {})
// advertises a transport.
type MCP struct {
	Stdio json.RawMessage `json:"stdio"`
	HTTP  json.RawMessage `json:"http"`
}

// Install adds the v2 fix-ups of session-creating requests to r; install
// it after every dialect's rewrites, so it sees the MCP servers they
// listed.
func (c *Conn) Install(r *relay.Relay) {
	for _, method := range []string{"session/new", "session/resume"} {
		r.FromClient(method, c.servers)
	}
}

// servers makes the MCP servers askbridge lists in a v2 session fit v2:
// every entry names its transport (v1's stdio entry has no type; v2's
// must say "stdio"), and none is of a transport the agent did not advertise
// (a v2 agent refuses the whole request with -32602 for one). A v2 client's
// own entries always carry a type, so an entry without one is askbridge's.
// askbridge lists HTTP only where v1's mcpCapabilities.http says so, which a
// v2 agent never sends, so no HTTP entry of its own reaches a v2 session.
// On v1 nothing changes.
func (c *Conn) servers(m *relay.Message) relay.Verdict {
	c.mu.Lock()
	v2, mcp := c.agreed >= V2, c.mcp
	c.mu.Unlock()
	if !v2 {
		return relay.Pass
	}
	return relay.RewriteParams(func(params json.RawMessage) (json.RawMessage, error) {
		var p map[string]json.RawMessage
		if json.Unmarshal(params, &p) != nil || p["mcpServers"] == nil {
			return nil, nil
		}
		var servers []map[string]json.RawMessage
		if json.Unmarshal(p["mcpServers"], &servers) != nil {
			return nil, nil
		}
		kept, changed := servers[:0], false
		for _, s := range servers {
			if s["type"] == nil && s["command"] != nil {
				changed = true
				if !isObject(mcp.Stdio) {
					c.logger().Warn("the agent advertises no stdio MCP servers (v2 capabilities.session.mcp.stdio): askbridge's stdio server is not listed")
					continue
				}
				s["type"] = json.RawMessage(`"stdio"`)
			}
			kept = append(kept, s)
		}
		if !changed {
			return nil, nil
		}
		out, err := json.Marshal(kept)
		if err != nil {
			return nil, err
		}
		p["mcpServers"] = out
		return json.Marshal(p)
	})(m)
}

// isObject reports whether a raw value is a JSON object.
func isObject(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}
