package permission

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxTyped is the longest typed answer, in characters, on every path that
// takes one: the answer desk and an Other's _meta.customText. Picked
// labels are not typed answers and are not limited by it.
const MaxTyped = 1000

// Typed cleans a typed answer before an agent reads it. It removes control
// characters, which could drive the terminal or log the agent's text ends
// up in (C0 but newline and tab, DEL, C1: ESC and CSI start escape
// sequences), and bidi embeddings, overrides and isolates (U+202A–U+202E,
// U+2066–U+2069), which make text read differently from what it says; it
// trims surrounding space. A cleaned answer over MaxTyped characters is an
// error naming the limit.
func Typed(s string) (string, error) {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if strippedFromTyped(r) {
			return -1
		}
		return r
	}, s))
	if n := utf8.RuneCountInString(s); n > MaxTyped {
		return "", fmt.Errorf("a typed answer of %d characters; the limit is %d", n, MaxTyped)
	}
	return s, nil
}

func strippedFromTyped(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}
