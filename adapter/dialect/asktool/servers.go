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
