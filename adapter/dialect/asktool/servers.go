package asktool

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// The server entries askbridge adds to a session-creating request.

// stdioServer is ACP's McpServerStdio, the one shape every agent starts.
type stdioServer struct {
	Name    string        `json:"name"`
	Command string        `json:"command"`
	Args    []string      `json:"args"`
	Env     []envVariable `json:"env"`
}

type envVariable struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// v2Identity is what an ACP v2 agent's initialize answer says of it:
// info (v1's agentInfo) and capabilities.session.mcp (v1's
// agentCapabilities.mcpCapabilities), where an object advertises a
// transport and stdio is no longer implied.
type v2Identity struct {
	Info struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	} `json:"info"`
	Capabilities struct {
		Session struct {
			MCP struct {
				Stdio json.RawMessage `json:"stdio"`
				HTTP  json.RawMessage `json:"http"`
			} `json:"mcp"`
		} `json:"session"`
	} `json:"capabilities"`
}

// isV2 reports whether the answer was ACP v2's (it has capabilities.session).
func (a agentIdentity) isV2() bool {
	return a.Info.Name != "" || a.Capabilities.Session.MCP.Stdio != nil || a.Capabilities.Session.MCP.HTTP != nil
}

// takesHTTP and takesStdio say what the agent advertised: v1's
// mcpCapabilities.http (stdio is every v1 agent's), v2's session.mcp.
func (a agentIdentity) takesHTTP() bool {
	return a.AgentCapabilities.McpCapabilities.HTTP || isObject(a.Capabilities.Session.MCP.HTTP)
}

func (a agentIdentity) takesStdio() bool {
	return !a.isV2() || isObject(a.Capabilities.Session.MCP.Stdio)
}

func isObject(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// chooseTransport picks the transport from what the agent advertises:
// stdio, which every v1 agent starts, unless the agent is one known to
// drop stdio servers over ACP (mcpTransports) and advertises HTTP, or a v2
// agent advertises HTTP and not stdio. d.mu is held.
func (d *MCPAsk) chooseTransport() mcpTransport {
	a := d.agent
	if !a.takesHTTP() {
		return mcpStdio
	}
	if !a.takesStdio() {
		return mcpHTTP
	}
	for _, w := range d.agentWords() {
		for _, t := range mcpTransports {
			if w == t.word {
				return t.transport
			}
		}
	}
	return mcpStdio
}

// askOverHTTP reports whether an agent with a question dialect of its own
// still gets askbridge's tool under auto: one that no longer offers its
// own ask tool over ACP (Cursor) and advertises HTTP, where the tool can
// reach it. Its dialect stays for the builds that do ask. d.mu is held.
func (d *MCPAsk) askOverHTTP() bool {
	if !d.agent.takesHTTP() {
		return false
	}
	for _, w := range d.agentWords() {
		if w == "cursor" {
			return true
		}
	}
	return false
}

// addServer appends entry to params.mcpServers, leaving the client's
// entries as they came. It returns nil when the client already lists a
// server of the entry's name.
func addServer(params, entry json.RawMessage) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil || p == nil {
		return nil, fmt.Errorf("params are not an object")
	}
	var servers []json.RawMessage
	if raw := bytes.TrimSpace(p["mcpServers"]); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, fmt.Errorf("mcpServers is not a list: %v", err)
		}
	}
	var named struct {
		Name string `json:"name"`
	}
	json.Unmarshal(entry, &named)
	own := named.Name
	for _, s := range servers {
		named.Name = ""
		if json.Unmarshal(s, &named) == nil && named.Name == own {
			return nil, nil
		}
	}
	p["mcpServers"] = dialect.MustJSON(append(servers, entry))
	return json.Marshal(p)
}

// setValue sets obj[key] = v, replacing what is there.
func setValue(obj json.RawMessage, key string, v json.RawMessage) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	m[key] = v
	return json.Marshal(m)
}
