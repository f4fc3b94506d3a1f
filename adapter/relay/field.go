package relay

import "encoding/json"

// Field returns the raw JSON value at path in the object line holds (each
// element a member name, one object deep each), without decoding the rest:
// params.sessionId of a prompt is found with a scan, however long its
// prompt. ok is false when line is not valid JSON or a member is missing.
func Field(line []byte, path ...string) (value []byte, ok bool) {
	v := line
	for _, name := range path {
		if v, ok = member(v, name); !ok {
			return nil, false
		}
	}
	return v, true
}

// StringField is Field for a string value, unescaped.
func StringField(line []byte, path ...string) (string, bool) {
	v, ok := Field(line, path...)
	if !ok || len(v) < 2 || v[0] != '"' {
		return "", false
	}
	if plainASCII(v) {
		return string(v[1 : len(v)-1]), true
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}

// plainASCII reports whether a JSON string holds no escape and no byte
// outside ASCII, so its bytes are its value as encoding/json reads it.
func plainASCII(v []byte) bool {
	for _, c := range v {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// member is the value of the top-level member name of the object in b; the
// whole object is checked to be valid JSON as scan checks a line.
func member(b []byte, name string) ([]byte, bool) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	if end, err := skipValue(b, i); err != nil || trailing(b, end) != nil {
		return nil, false
	}
	i = skipWS(b, i+1)
	for i < len(b) && b[i] == '"' {
		ks, ke, _ := stringSpan(b, i) // valid: skipValue said so
		i = skipWS(b, ke+1) + 1       // past the colon
		vs := skipWS(b, i)
		ve, _ := skipValue(b, vs)
		if string(b[ks:ke]) == name {
			return b[vs:ve], true
		}
		i = skipWS(b, ve)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
		}
	}
	return nil, false
}
