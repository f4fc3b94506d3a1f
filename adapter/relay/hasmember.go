package relay

import "bytes"

// HasMember reports whether line holds, at any depth, a member named key
// (written as is, without escapes) whose raw value starts with value (raw
// JSON: `"tool_call` for both "tool_call" and "tool_call_update", with the
// closing quote for one string alone). It is a byte test for a hook that
// wants few of a method's messages — a subagent_update among a stream of
// message chunks — to pass the others over without decoding them: it may
// say yes to what only looks like one (the end of a key holding an escaped
// quote), so a yes is to be checked by decoding, but it never says no to a
// member so written.
//
// It looks for key by its anchor byte (see anchor) with bytes.IndexByte,
// which skips the text of a chunk at memory speed, where bytes.Contains
// stumbles on every letter of the text its needle starts with and falls
// back to comparing at each byte: several times the cost of relaying the
// line.
func HasMember(line []byte, key, value string) bool {
	if key == "" {
		return false
	}
	at := anchor(key)
	c := key[at]
	at++ // the quote before key
	for off := 0; off < len(line); {
		j := bytes.IndexByte(line[off:], c)
		if j < 0 {
			return false
		}
		j += off
		off = j + 1
		start := j - at
		i := start + 1 + len(key)
		if start < 0 || i >= len(line) || line[start] != '"' || string(line[start+1:i]) != key || line[i] != '"' {
			continue
		}
		if i = skipWS(line, i+1); i >= len(line) || line[i] != ':' {
			continue
		}
		if v := line[skipWS(line, i+1):]; len(v) >= len(value) && string(v[:len(value)]) == value {
			return true
		}
	}
	return false
}

// anchor is the index of the byte of key to search for: its first that is
// not a lower-case letter (the U of sessionUpdate: message text has few
// capitals), else its last.
func anchor(key string) int {
	for i := range len(key) {
		if c := key[i]; c < 'a' || c > 'z' {
			return i
		}
	}
	return len(key) - 1
}
