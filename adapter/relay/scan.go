package relay

import (
	"bytes"
	"errors"
	"fmt"
)

// header is what the relay needs to know about a message: its method, its id
// and whether it is a response. It points into the line it was scanned from.
type header struct {
	method   []byte // raw string token without quotes; may hold escapes
	id       []byte // raw JSON token, nil when absent
	object   bool   // the line is a JSON object (not a batch or a scalar)
	response bool   // has "result" or "error"
	batch    bool   // the line is a JSON array: a batch (batch.go)
}

func (h header) isRequest() bool      { return h.method != nil && h.id != nil }
func (h header) isNotification() bool { return h.method != nil && h.id == nil }
func (h header) isResponse() bool     { return h.method == nil && h.id != nil && h.response }

var errSyntax = errors.New("invalid JSON")

// scan checks that b holds one JSON value and reads the top-level fields the
// relay routes on, in a single pass and without allocating. It is lenient in
// one way only: control characters inside strings are not rejected, since the
// relay forwards bytes, never decodes them.
func scan(b []byte) (header, error) {
	if bytes.HasPrefix(b, updateStart) {
		return scanUpdate(b)
	}
	var h header
	i := skipWS(b, 0)
	if i >= len(b) {
		return h, fmt.Errorf("%w: empty line", errSyntax)
	}
	if b[i] != '{' {
		h.batch = b[i] == '['
		end, err := skipValue(b, i)
		if err != nil {
			return h, err
		}
		return h, trailing(b, end)
	}
	h.object = true
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return h, trailing(b, i+1)
	}
	key, vs, err := memberAt(b, i)
	if err != nil {
		return h, err
	}
	return members(b, h, key, vs)
}

// updateStart is how the agents start a session/update: such a line's
// first members are read at once, and the scan goes on at params' value.
var updateStart = []byte(`{"jsonrpc":"2.0","method":"session/update","params":`)

// scanUpdate is scan of a line that starts with updateStart.
func scanUpdate(b []byte) (header, error) {
	m := len(`{"jsonrpc":"2.0","method":"`)
	h := header{object: true, method: b[m : m+len(UpdateMethod)]}
	return members(b, h, []byte("params"), len(updateStart))
}

// memberAt reads `"key" :` at b[i]: the key's raw contents and where its
// value starts.
func memberAt(b []byte, i int) (key []byte, vs int, err error) {
	ks, ke, err := stringSpan(b, i)
	if err != nil {
		return nil, 0, err
	}
	i = skipWS(b, ke+1)
	if i >= len(b) || b[i] != ':' {
		return nil, 0, fmt.Errorf("%w: expected ':' at byte %d", errSyntax, i)
	}
	return b[ks:ke], skipWS(b, i+1), nil
}

// members reads an object's members from that of key, whose value starts
// at b[vs], to the object's end, which must end the line.
func members(b []byte, h header, key []byte, vs int) (header, error) {
	for {
		ve, err := skipValue(b, vs)
		if err != nil {
			return h, err
		}
		switch string(key) {
		case "method":
			if vs < len(b) && b[vs] == '"' {
				h.method = b[vs+1 : ve-1]
			}
		case "id":
			h.id = b[vs:ve]
		case "result", "error":
			h.response = true
		}
		i := skipWS(b, ve)
		if i >= len(b) {
			return h, fmt.Errorf("%w: unexpected end of line", errSyntax)
		}
		if b[i] == '}' {
			return h, trailing(b, i+1)
		}
		if b[i] != ',' {
			return h, fmt.Errorf("%w: expected ',' or '}' at byte %d", errSyntax, i)
		}
		if key, vs, err = memberAt(b, skipWS(b, i+1)); err != nil {
			return h, err
		}
	}
}

func trailing(b []byte, i int) error {
	if i = skipWS(b, i); i != len(b) {
		return fmt.Errorf("%w: unexpected data after the value at byte %d", errSyntax, i)
	}
	return nil
}

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// skipValue validates the value starting at b[i] and returns the index just
// past it. Nesting is tracked on a heap stack, so a deep line cannot exhaust
// the goroutine stack.
func skipValue(b []byte, i int) (int, error) {
	var small [32]byte
	stack := small[:0]
	for {
		i = skipWS(b, i)
		if i >= len(b) {
			return 0, fmt.Errorf("%w: unexpected end of line", errSyntax)
		}
		closed := true
		switch c := b[i]; {
		case c == '{':
			j := skipWS(b, i+1)
			if j < len(b) && b[j] == '}' {
				i = j + 1
				break
			}
			stack = append(stack, '{')
			var err error
			if i, err = objectKey(b, j); err != nil {
				return 0, err
			}
			closed = false
		case c == '[':
			j := skipWS(b, i+1)
			if j < len(b) && b[j] == ']' {
				i = j + 1
				break
			}
			stack = append(stack, '[')
			i = j
			closed = false
		case c == '"':
			_, end, err := stringSpan(b, i)
			if err != nil {
				return 0, err
			}
			i = end + 1
		case c == 't':
			if !bytes.HasPrefix(b[i:], []byte("true")) {
				return 0, fmt.Errorf("%w: bad literal at byte %d", errSyntax, i)
			}
			i += 4
		case c == 'f':
			if !bytes.HasPrefix(b[i:], []byte("false")) {
				return 0, fmt.Errorf("%w: bad literal at byte %d", errSyntax, i)
			}
			i += 5
		case c == 'n':
			if !bytes.HasPrefix(b[i:], []byte("null")) {
				return 0, fmt.Errorf("%w: bad literal at byte %d", errSyntax, i)
			}
			i += 4
		default:
			var err error
			if i, err = skipNumber(b, i); err != nil {
				return 0, err
			}
		}
		if !closed {
			continue
		}
		// A value ended: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, nil
			}
			i = skipWS(b, i)
			if i >= len(b) {
				return 0, fmt.Errorf("%w: unexpected end of line", errSyntax)
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				if top == '{' {
					var err error
					if i, err = objectKey(b, skipWS(b, i+1)); err != nil {
						return 0, err
					}
				} else {
					i++
				}
				break
			}
			if top == '{' && b[i] == '}' || top == '[' && b[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return 0, fmt.Errorf("%w: unexpected %q at byte %d", errSyntax, b[i], i)
		}
	}
}

// objectKey reads `"key" :` at b[i] and returns the index after the colon.
func objectKey(b []byte, i int) (int, error) {
	_, end, err := stringSpan(b, i)
	if err != nil {
		return 0, err
	}
	i = skipWS(b, end+1)
	if i >= len(b) || b[i] != ':' {
		return 0, fmt.Errorf("%w: expected ':' at byte %d", errSyntax, i)
	}
	return i + 1, nil
}

func skipNumber(b []byte, i int) (int, error) {
	start := i
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return 0, fmt.Errorf("%w: unexpected character at byte %d", errSyntax, start)
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return 0, fmt.Errorf("%w: bad number at byte %d", errSyntax, start)
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, fmt.Errorf("%w: bad number at byte %d", errSyntax, start)
		}
	}
	return i, nil
}

// ResponseKey is the IDKey of msg's id when msg is a response (a result or
// an error with an id and no method); ok is false otherwise.
func ResponseKey(msg []byte) (key string, ok bool) {
	h, err := scan(msg)
	if err != nil || !h.isResponse() {
		return "", false
	}
	return IDKey(h.id), true
}
