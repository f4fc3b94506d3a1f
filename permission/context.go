package permission

import (
	"strings"
	"unicode/utf8"
)

// Context is what the agent said and planned before it asked, for the card
// of a person who answers away from the editor: Words, its last message
// text in the session (cleaned as a typed answer is, secrets hidden,
// bounded), and Plan, its current plan (ACP's plan entries). The bridge
// takes it when the set is asked, so it is what preceded this very set.
type Context struct {
	Words string      `json:"words,omitempty"`
	Plan  []PlanEntry `json:"plan,omitempty"`
}

// PlanEntry is one entry of an agent's plan, in ACP's words: its content,
// priority (high, medium, low) and status (pending, in_progress,
// completed).
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority,omitempty"`
	Status   string `json:"status,omitempty"`
}

// Empty reports whether c says nothing.
func (c *Context) Empty() bool { return c == nil || (c.Words == "" && len(c.Plan) == 0) }

// Cleaned is s without what Typed removes (control characters but newline
// and tab, bidi controls), trimmed, and, past max characters, only its
// last max with "…" before them: an agent's text shown where a typed
// answer would be, of no bounded length.
func Cleaned(s string, max int) string {
	s = strings.TrimSpace(strings.Map(func(r rune) rune {
		if strippedFromTyped(r) {
			return -1
		}
		return r
	}, s))
	if n := utf8.RuneCountInString(s); max > 0 && n > max {
		r := []rune(s)
		s = "…" + strings.TrimLeft(string(r[n-max+1:]), " \t\n")
	}
	return s
}
