package acpschema

import (
	"maps"
	"reflect"
	"slices"
	"strings"
)

// Undeclared lists the members of v (decoded JSON checked against the
// definition def) that no schema on their path declares. ACP leaves its
// objects open, so a misspelt optional field ("toolCallID") passes the
// schema; here it shows. Members under an object that allows any
// (_meta, rawInput) are free. Of the branches of an anyOf or oneOf, those
// whose "const" members match v are followed, so a field of another
// variant is not taken for one of this one.
func (s *Schema) Undeclared(def string, v any) []string {
	var out []string
	s.walk([]any{map[string]any{"$ref": "#/$defs/" + def}}, v, "", &out)
	slices.Sort(out)
	return out
}

func (s *Schema) walk(nodes []any, v any, path string, out *[]string) {
	var in []map[string]any
	for _, n := range nodes {
		in = s.expand(n, v, in, 0)
	}
	switch v := v.(type) {
	case map[string]any:
		declared := map[string][]any{}
		open := true
		var extra []any // schemas of members not declared, where allowed
		for _, n := range in {
			if props, ok := n["properties"].(map[string]any); ok {
				open = false
				for k, p := range props {
					declared[k] = append(declared[k], p)
				}
			}
			switch ap := n["additionalProperties"].(type) {
			case bool:
				if ap {
					return // anything goes below here
				}
			case map[string]any:
				extra = append(extra, ap)
			}
		}
		if open && len(extra) == 0 {
			return // no schema says what this object holds
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			switch {
			case declared[k] != nil:
				s.walk(declared[k], v[k], path+"."+k, out)
			case extra != nil:
				s.walk(extra, v[k], path+"."+k, out)
			default:
				*out = append(*out, strings.TrimPrefix(path+"."+k, "."))
			}
		}
	case []any:
		var items []any
		for _, n := range in {
			if it, ok := n["items"]; ok {
				items = append(items, it)
			}
		}
		if items == nil {
			return
		}
		for _, e := range v {
			s.walk(items, e, path+"[]", out)
		}
	}
}

// expand appends node and every schema it brings in for v: its $ref, its
// allOf, and the anyOf/oneOf branches that fit v.
func (s *Schema) expand(node any, v any, acc []map[string]any, depth int) []map[string]any {
	n, ok := node.(map[string]any)
	if !ok || depth > 32 {
		return acc
	}
	acc = append(acc, n)
	if ref, ok := n["$ref"].(string); ok {
		defs, _ := s.doc["$defs"].(map[string]any)
		acc = s.expand(defs[strings.TrimPrefix(ref, "#/$defs/")], v, acc, depth+1)
	}
	if all, ok := n["allOf"].([]any); ok {
		for _, b := range all {
			acc = s.expand(b, v, acc, depth+1)
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		branches, _ := n[key].([]any)
		for _, b := range branches {
			if fits(b, v) {
				acc = s.expand(b, v, acc, depth+1)
			}
		}
	}
	return acc
}

// fits says whether a branch can describe v as far as its direct "type"
// and the "const" values of its properties tell.
func fits(branch any, v any) bool {
	b, ok := branch.(map[string]any)
	if !ok {
		return false
	}
	if t, ok := b["type"].(string); ok && !typeIs(t, v) {
		return false
	}
	props, _ := b["properties"].(map[string]any)
	obj, _ := v.(map[string]any)
	for k, p := range props {
		c, ok := p.(map[string]any)["const"]
		if ok && (obj == nil || !reflect.DeepEqual(obj[k], c)) {
			return false
		}
	}
	return true
}

func typeIs(t string, v any) bool {
	switch v.(type) {
	case map[string]any:
		return t == "object"
	case []any:
		return t == "array"
	case string:
		return t == "string"
	case float64:
		return t == "number" || t == "integer"
	case bool:
		return t == "boolean"
	case nil:
		return t == "null"
	}
	return false
}
