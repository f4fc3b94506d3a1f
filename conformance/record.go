package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askbridge/askbridge/adapter/record"
	"github.com/askbridge/askbridge/adapter/relay"
)

// FromRecording turns a `askbridge --record` file into a fixture skeleton:
// what the client and the agent sent become its client and agent
// sections, what the answer desk did its desk section (each line placed
// after the client's lines recorded before it); the want sections come
// from replaying it (-update).
func FromRecording(name string, data []byte) (*Fixture, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return FromZedLog(name, trimmed)
	}
	f := &Fixture{Name: name, Comment: "Recorded with askbridge --record from " + name + ".\nSay here: the agent and its version, the client's capabilities, and what this case proves; and on a line of its own, command: the agent's command line.\n"}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<30)
	asked := 0
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var e struct {
			Dir       string          `json:"dir"`
			Askbridge bool            `json:"askbridge"`
			Msg       json.RawMessage `json:"msg"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Msg == nil {
			return nil, fmt.Errorf("%s: line %d is not a --record entry {\"dir\",\"t\",\"msg\"}", name, n)
		}
		if e.Askbridge {
			// askbridge's own messages are what a replay produces; its
			// requests to the client say when a desk line comes.
			if in := info(e.Msg); e.Dir == relay.AgentToClient && in.method != "" && in.id != "" {
				asked++
			}
			continue
		}
		switch e.Dir {
		case "c2a":
			f.Client = append(f.Client, ownID().ReplaceAll(compact(e.Msg), []byte(`"askbridge-$2"`)))
		case "a2c":
			f.Agent = append(f.Agent, mcpServerName().ReplaceAllLiteral(compact(e.Msg), []byte(MCPServer)))
		case record.Desk:
			d := DeskLine{After: len(f.Client), Asked: asked}
			if err := json.Unmarshal(e.Msg, &d.DeskResolution); err != nil {
				return nil, fmt.Errorf("%s: line %d: a desk entry: %v", name, n, err)
			}
			if problem := d.check(); problem != "" {
				return nil, fmt.Errorf("%s: line %d: a desk entry: %s", name, n, problem)
			}
			f.Desk = append(f.Desk, d)
		default:
			return nil, fmt.Errorf("%s: line %d: dir %q, want c2a, a2c or desk", name, n, e.Dir)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// FromZedLog turns a Zed ACP log export (a JSON array of messages with
// "_direction" outgoing|incoming and "_type") into a fixture skeleton: what
// the client sent is the client section, what it received the agent
// section.
func FromZedLog(name string, data []byte) (*Fixture, error) {
	var entries []map[string]json.RawMessage
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("%s: not a Zed ACP log (a JSON array of entries): %v", name, err)
	}
	f := &Fixture{Name: name, Comment: "Converted from a Zed ACP log export, " + name + ".\nSay here: the agent and its version, the client's capabilities, and what this case proves; and on a line of its own, command: the agent's command line.\n"}
	for i, e := range entries {
		var dir string
		json.Unmarshal(e["_direction"], &dir)
		delete(e, "_direction")
		delete(e, "_type")
		if _, ok := e["jsonrpc"]; !ok {
			e["jsonrpc"] = json.RawMessage(`"2.0"`)
		}
		b, _ := json.Marshal(e)
		switch strings.ToLower(dir) {
		case "outgoing":
			f.Client = append(f.Client, b)
		case "incoming":
			f.Agent = append(f.Agent, b)
		default:
			return nil, fmt.Errorf("%s: entry %d: _direction %q, want outgoing or incoming", name, i, dir)
		}
	}
	return f, nil
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
