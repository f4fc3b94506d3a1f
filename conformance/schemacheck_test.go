package conformance

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// acpSchemaFile is schema/v1/schema.json of the npm package
// @agentclientprotocol/sdk 2.4.0, committed (see its README) so the test
// needs no network.
const acpSchemaFile = "testdata/schema/acp-v1.schema.json"

// acpSchema validates ACP messages by method. Which definition describes a
// method's params or result is read from the schema itself: every request,
// response and notification type carries "x-method".
type acpSchema struct {
	doc     map[string]any    // the schema, catch-all branches removed
	params  map[string]string // request method -> definition of its params
	results map[string]string // request method -> definition of its result
	notes   map[string]string // notification method -> definition of its params

	mu       sync.Mutex
	resolved map[string]*jsonschema.Resolved
}

func loadACPSchema(path string) (*acpSchema, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	if len(defs) == 0 {
		return nil, fmt.Errorf("%s: no $defs", path)
	}
	s := &acpSchema{doc: doc, params: map[string]string{}, results: map[string]string{},
		notes: map[string]string{}, resolved: map[string]*jsonschema.Resolved{}}
	for name, def := range defs {
		d, _ := def.(map[string]any)
		method, _ := d["x-method"].(string)
		switch {
		case method == "":
		case strings.HasSuffix(name, "Notification"):
			s.notes[method] = name
		case strings.HasSuffix(name, "Request"):
			s.params[method] = name
		case strings.HasSuffix(name, "Response"):
			s.results[method] = name
		}
	}
	dropCatchAlls(doc)
	return s, nil
}

// dropCatchAlls removes, from every anyOf and oneOf, the branches that
// accept a variant only by not being any known one ("not": {...}). They
// let a receiver tolerate variants added by later protocol versions; a
// sender must use the variants its version defines, so for what askbridge
// writes a misspelt "action" or "mode" is an error, not an unknown variant.
func dropCatchAlls(v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, key := range []string{"anyOf", "oneOf"} {
			if branches, ok := v[key].([]any); ok {
				v[key] = slices.DeleteFunc(branches, func(b any) bool {
					m, ok := b.(map[string]any)
					return ok && m["not"] != nil
				})
			}
		}
		for _, child := range v {
			dropCatchAlls(child)
		}
	case []any:
		for _, child := range v {
			dropCatchAlls(child)
		}
	}
}

// validate checks v (decoded JSON) against the named definition.
func (s *acpSchema) validate(def string, v any) error {
	rs, err := s.resolve(def)
	if err != nil {
		return err
	}
	return rs.Validate(v)
}

func (s *acpSchema) resolve(def string) (*jsonschema.Resolved, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rs, ok := s.resolved[def]; ok {
		return rs, nil
	}
	// The definition as the root, the others beside it for its $refs.
	root := maps.Clone(s.doc)
	delete(root, "anyOf")
	delete(root, "title")
	root["$ref"] = "#/$defs/" + def
	b, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	var sch jsonschema.Schema
	if err := json.Unmarshal(b, &sch); err != nil {
		return nil, fmt.Errorf("schema for %s: %w", def, err)
	}
	rs, err := sch.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("schema for %s: %w", def, err)
	}
	s.resolved[def] = rs
	return rs, nil
}

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

// checked is the outcome of checking one message.
type checked struct {
	what  string // e.g. "session/request_permission request params"
	def   string // the definition it was checked against; "" if none applies
	shape string // the checked part's structure, values left out
	err   error
	// undeclared are the members the schema does not declare (see
	// acpSchema.undeclared), by path.
	undeclared []string
}

// check validates one line askbridge wrote. requests maps the ids of the
// requests the receiving side sent to their methods, so that a response is
// checked against the result type of the request it answers.
func (s *acpSchema) check(line []byte, requests map[string]string) checked {
	var m rpcMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return checked{what: "line", err: fmt.Errorf("not a JSON-RPC message: %w", err)}
	}
	var c checked
	var part json.RawMessage
	switch {
	case m.HTTP != "" && m.JSONRPC == "":
		verb, _, _ := strings.Cut(m.HTTP, " ")
		c.what = "HTTP " + verb + " to OpenCode (not ACP)"
		return c
	case m.Method != "" && m.ID != nil:
		c.what, c.def, part = m.Method+" request params", s.params[m.Method], m.Params
	case m.Method != "":
		c.what, c.def, part = m.Method+" notification params", s.notes[m.Method], m.Params
	case m.ID != nil:
		method, ok := requests[string(compact(m.ID))]
		if !ok {
			c.what, c.err = "response "+string(m.ID), fmt.Errorf("answers no request the other side sent")
			return c
		}
		if m.Error != nil {
			c.what, c.def, part = method+" error", "Error", m.Error
		} else {
			c.what, c.def, part = method+" result", s.results[method], m.Result
		}
	default:
		c.what, c.err = "line", fmt.Errorf("neither request, notification nor response")
		return c
	}
	if m.JSONRPC != "2.0" {
		c.err = fmt.Errorf(`"jsonrpc" is %q, want "2.0"`, m.JSONRPC)
		return c
	}
	if c.def == "" {
		return c // a method the schema does not define (an extension)
	}
	var v any
	if len(part) > 0 {
		if err := json.Unmarshal(part, &v); err != nil {
			c.err = err
			return c
		}
	}
	c.shape = c.def + " " + shapeOf(v)
	c.err = s.validate(c.def, v)
	c.undeclared = s.undeclared(c.def, v)
	return c
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

// authored is what askbridge itself wrote to one side in a fixture: the
// want lines that are not a line of the other side passed on unchanged
// (relayed lines are the peer's words, not askbridge's), with the requests
// the receiving side sent, by id.
type authored struct {
	side     string // "client" or "agent": who received the lines
	lines    [][]byte
	requests map[string]string
}

// authoredLines splits a fixture's want sections into askbridge's own
// messages to each side.
func authoredLines(f *Fixture) ([]authored, error) {
	toClient, err := authoredBy("client", f.WantClient, f.Agent, f.Client)
	if err != nil {
		return nil, err
	}
	toAgent, err := authoredBy("agent", f.WantAgent, f.Client, f.Agent)
	if err != nil {
		return nil, err
	}
	return []authored{toClient, toAgent}, nil
}

func authoredBy(side string, want, relayedFrom, receiver [][]byte) (authored, error) {
	a := authored{side: side, requests: map[string]string{}}
	passed := map[string]bool{}
	for _, l := range relayedFrom {
		passed[Normalize(l)] = true
	}
	for _, l := range want {
		if !passed[Normalize(l)] {
			a.lines = append(a.lines, l)
		}
	}
	for _, l := range receiver {
		var m rpcMessage
		if json.Unmarshal(l, &m) != nil || m.Method == "" || m.ID == nil {
			continue
		}
		id := string(compact(m.ID))
		if prev, ok := a.requests[id]; ok && prev != m.Method {
			return a, fmt.Errorf("the %s sent two requests with id %s (%s, %s)", side, id, prev, m.Method)
		}
		a.requests[id] = m.Method
	}
	return a, nil
}
