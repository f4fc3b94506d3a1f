package acpschema

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaJSON is schema/v1/schema.json of the npm package
// @agentclientprotocol/sdk 2.4.0, committed (see SCHEMA.md) so that tests
// need no network.
//
//go:embed acp-v1.schema.json
var schemaJSON []byte

// Schema validates ACP messages by method. Which definition describes a
// method's params or result is read from the schema itself: every request,
// response and notification type carries "x-method".
type Schema struct {
	doc     map[string]any    // the schema, catch-all branches removed
	params  map[string]string // request method -> definition of its params
	results map[string]string // request method -> definition of its result
	notes   map[string]string // notification method -> definition of its params

	mu       sync.Mutex
	resolved map[string]*jsonschema.Resolved
}

// ACP is the embedded official schema, parsed once.
var ACP = sync.OnceValues(func() (*Schema, error) { return Parse(schemaJSON) })

// Parse reads an ACP JSON schema.
func Parse(b []byte) (*Schema, error) {
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("ACP schema: %w", err)
	}
	defs, _ := doc["$defs"].(map[string]any)
	if len(defs) == 0 {
		return nil, fmt.Errorf("ACP schema: no $defs")
	}
	s := &Schema{doc: doc, params: map[string]string{}, results: map[string]string{},
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

// ParamsDef is the definition of request method's params, "" if the
// schema does not define the method.
func (s *Schema) ParamsDef(method string) string { return s.params[method] }

// ResultDef is the definition of request method's result.
func (s *Schema) ResultDef(method string) string { return s.results[method] }

// NotificationDef is the definition of notification method's params.
func (s *Schema) NotificationDef(method string) string { return s.notes[method] }

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

// Validate checks v (decoded JSON) against the named definition.
func (s *Schema) Validate(def string, v any) error {
	rs, err := s.resolve(def)
	if err != nil {
		return err
	}
	return rs.Validate(v)
}

func (s *Schema) resolve(def string) (*jsonschema.Resolved, error) {
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
