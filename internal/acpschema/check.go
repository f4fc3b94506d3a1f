package acpschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// rpcMessage is a JSON-RPC message split into its parts.
type rpcMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
	HTTP    string          `json:"http"` // OpenCode fixtures: askbridge's calls to its question server
}

// Checked is the outcome of checking one message.
type Checked struct {
	What  string // e.g. "session/request_permission request params"
	Def   string // the definition it was checked against; "" if none applies
	Shape string // the checked part's structure, values left out
	Err   error
	// Undeclared are the members the schema does not declare, by path
	// (see Schema.Undeclared).
	Undeclared []string
}

// Request returns the id (compact JSON) and method of line if it is a
// JSON-RPC request, for the requests map of Check.
func Request(line []byte) (id, method string, ok bool) {
	var m rpcMessage
	if json.Unmarshal(line, &m) != nil || m.Method == "" || m.ID == nil {
		return "", "", false
	}
	return string(compact(m.ID)), m.Method, true
}

// Check validates one line askbridge wrote. requests maps the ids of the
// requests the receiving side sent (as Request gives them) to their
// methods, so that a response is checked against the result type of the
// request it answers.
func (s *Schema) Check(line []byte, requests map[string]string) Checked {
	var m rpcMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return Checked{What: "line", Err: fmt.Errorf("not a JSON-RPC message: %w", err)}
	}
	var c Checked
	var part json.RawMessage
	switch {
	case m.HTTP != "" && m.JSONRPC == "":
		verb, _, _ := strings.Cut(m.HTTP, " ")
		c.What = "HTTP " + verb + " to OpenCode (not ACP)"
		return c
	case m.Method != "" && m.ID != nil:
		c.What, c.Def, part = m.Method+" request params", s.params[m.Method], m.Params
	case m.Method != "":
		c.What, c.Def, part = m.Method+" notification params", s.notes[m.Method], m.Params
	case m.ID != nil:
		method, ok := requests[string(compact(m.ID))]
		if !ok {
			c.What, c.Err = "response "+string(m.ID), fmt.Errorf("answers no request the other side sent")
			return c
		}
		if m.Error != nil {
			c.What, c.Def, part = method+" error", "Error", m.Error
		} else {
			c.What, c.Def, part = method+" result", s.results[method], m.Result
		}
	default:
		c.What, c.Err = "line", fmt.Errorf("neither request, notification nor response")
		return c
	}
	if m.JSONRPC != "2.0" {
		c.Err = fmt.Errorf(`"jsonrpc" is %q, want "2.0"`, m.JSONRPC)
		return c
	}
	if c.Def == "" {
		// A method the schema defines the other way is a mistake; one it
		// does not define is an extension.
		switch {
		case m.Method != "" && m.ID != nil && s.notes[m.Method] != "":
			c.Err = fmt.Errorf("%s is a notification, sent as a request (with an id)", m.Method)
		case m.Method != "" && m.ID == nil && s.params[m.Method] != "":
			c.Err = fmt.Errorf("%s is a request, sent as a notification (no id)", m.Method)
		}
		return c
	}
	var v any
	if len(part) > 0 {
		if err := json.Unmarshal(part, &v); err != nil {
			c.Err = err
			return c
		}
	}
	c.Shape = c.Def + " " + shapeOf(v)
	c.Err = s.Validate(c.Def, v)
	c.Undeclared = s.Undeclared(c.Def, v)
	return c
}

// Deliberate are the undeclared members askbridge sends on purpose, each
// with its reason, by definition and path.
var Deliberate = map[string]string{
	"RequestPermissionResponse.answers": "Qwen Code reads the answers from a top-level answers object beside the outcome",
}

// Problem is what is wrong with a checked message: the schema's error, or
// members the schema does not declare that are not Deliberate.
func (c Checked) Problem() error {
	if c.Err != nil {
		return c.Err
	}
	var stray []string
	for _, u := range c.Undeclared {
		if _, ok := Deliberate[c.Def+"."+u]; !ok {
			stray = append(stray, u)
		}
	}
	if len(stray) > 0 {
		return fmt.Errorf("members %s does not declare (misspelt?): %s", c.Def, strings.Join(stray, ", "))
	}
	return nil
}

// tagKeys are the ACP fields whose (enumerated) value picks a variant or a
// meaning: their values are part of a shape.
var tagKeys = map[string]bool{"sessionUpdate": true, "type": true, "outcome": true,
	"action": true, "mode": true, "kind": true, "status": true}

// shapeOf is v's structure: keys and value types (the values of tagKeys
// too), arrays as the set of their elements' shapes. Two messages that
// differ only in ids, texts or labels have one shape.
func shapeOf(v any) string {
	switch v := v.(type) {
	case map[string]any:
		keys := slices.Sorted(maps.Keys(v))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + shapeOf(v[k])
			if s, ok := v[k].(string); ok && tagKeys[k] {
				parts[i] = k + ":" + strconv.Quote(s)
			}
		}
		return "{" + strings.Join(parts, ",") + "}"
	case []any:
		set := map[string]bool{}
		for _, e := range v {
			set[shapeOf(e)] = true
		}
		return "[" + strings.Join(slices.Sorted(maps.Keys(set)), "|") + "]"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
