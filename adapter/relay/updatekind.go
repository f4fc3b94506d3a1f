package relay

import (
	"bytes"
	"encoding/json"
)

// UpdateKind is a session/update's kind, its params.update.sessionUpdate,
// read once for every hook the message meets: each hook had searched the
// whole line for a kind of its own, so a message chunk's text was read
// once per hook. The walk reads the members of params and of update in
// order up to the kind, skipping the values before it, and never reads what
// follows it (a chunk's text). Nil when the message has no such string. The
// bytes are the line's own, valid during the hook, unless the kind is
// written with escapes (decoded, then).
func (m *Message) UpdateKind() []byte {
	if !m.kindRead {
		m.kind, m.session = updateKind(m.Raw)
		m.kindRead = true
	}
	return m.kind
}

// UpdateSession is a session/update's params.sessionId where its line
// starts as the agents write it (the id a plain string before the update),
// read with its kind: nil otherwise, for the caller to find it its own way.
// The bytes are the line's own, valid during the hook.
func (m *Message) UpdateSession() []byte {
	m.UpdateKind()
	return m.session
}

// IsUpdate says whether m is a session/update of kind.
func (m *Message) IsUpdate(kind string) bool { return string(m.UpdateKind()) == kind }

// The start of a session/update as the agents write it, up to the
// session's id, and what follows the id up to the kind: a line that starts
// so (the id and kind plain strings) has its kind read at once; another is
// walked.
var (
	updateHead = []byte(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"`)
	updateKey  = []byte(`","update":{"sessionUpdate":"`)
)

func updateKind(line []byte) (kind, session []byte) {
	if rest, ok := bytes.CutPrefix(line, updateHead); ok {
		if j := plainString(rest); j >= 0 {
			session = rest[:j]
			if rest, ok = bytes.CutPrefix(rest[j:], updateKey); ok {
				if j = plainString(rest); j >= 0 {
					return rest[:j], session
				}
			}
		}
	}
	v := valueOf(line, valueOf(line, valueOf(line, 0, "params"), "update"), "sessionUpdate")
	if v < 0 || line[v] != '"' {
		return nil, nil
	}
	s, e, err := stringSpan(line, v)
	if err != nil {
		return nil, nil
	}
	if bytes.IndexByte(line[s:e], '\\') < 0 {
		return line[s:e], nil
	}
	var k string
	if json.Unmarshal(line[v:e+1], &k) != nil {
		return nil, nil
	}
	return []byte(k), nil
}

// plainString is the length of the string contents s starts with, up to
// their closing quote: -1 when an escape comes before it, or no quote.
func plainString(s []byte) int {
	j := bytes.IndexByte(s, '"')
	if j < 0 || bytes.IndexByte(s[:j], '\\') >= 0 {
		return -1
	}
	return j
}

// valueOf is the index in line of the value of the first member named name
// of the object at line[i]: -1 when there is none, or no object there (i
// negative). The members before it are skipped, those after it not read.
func valueOf(line []byte, i int, name string) int {
	if i < 0 {
		return -1
	}
	if i = skipWS(line, i); i >= len(line) || line[i] != '{' {
		return -1
	}
	for i = skipWS(line, i+1); i < len(line) && line[i] == '"'; {
		ks, ke, err := stringSpan(line, i)
		if err != nil {
			return -1
		}
		if i = skipWS(line, ke+1); i >= len(line) || line[i] != ':' {
			return -1
		}
		vs := skipWS(line, i+1)
		if keyIs(line[ks:ke], name) {
			return vs
		}
		ve, err := skipValue(line, vs)
		if err != nil {
			return -1
		}
		if i = skipWS(line, ve); i >= len(line) || line[i] != ',' {
			return -1
		}
		i = skipWS(line, i+1)
	}
	return -1
}

// keyIs says whether a key's raw contents read as name, escapes decoded.
func keyIs(raw []byte, name string) bool {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw) == name
	}
	var k string
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	return json.Unmarshal(q, &k) == nil && k == name
}
