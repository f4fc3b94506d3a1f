package permission

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTypedStripsControlsAndBidiAndKeepsNewlineAndTab(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"MariaDB", "MariaDB"},
		{"  padded\t", "padded"},
		{"a\x00b\x1b[31mred\x1b[0m", "ab[31mred[0m"},
		{"line one\nline\ttwo", "line one\nline\ttwo"},
		{"crlf\r\nend", "crlf\nend"},
		{"del\x7f c1\u009b2J", "del c12J"},
		{"evil\u202etxt.exe", "eviltxt.exe"},
		{"\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069iso", "iso"},
		{"עברית and 日本語 stay", "עברית and 日本語 stay"},
		{"\x00\u202e ", ""},
	} {
		got, err := Typed(tt.in)
		require.NoError(t, err, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

func TestTypedLimitCountsCharactersAfterCleaning(t *testing.T) {
	got, err := Typed(strings.Repeat("é", MaxTyped))
	require.NoError(t, err)
	assert.Equal(t, MaxTyped, len([]rune(got)))
	_, err = Typed(strings.Repeat("\x00", 5000) + strings.Repeat("x", MaxTyped))
	assert.NoError(t, err, "stripped characters do not count")
	_, err = Typed(strings.Repeat("x", MaxTyped+1))
	assert.EqualError(t, err, "a typed answer of 1001 characters; the limit is 1000")
}

// The client's path: an Other's customText is cleaned and limited as the
// desk's typed answers are.
func TestParseOutcomeCleansAndLimitsCustomText(t *testing.T) {
	q := Question{Question: "Which database?", Header: "DB", Options: []Option{{Label: "Postgres"}, {Label: "SQLite"}}}
	outcome := func(text string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": OtherID, "_meta": map[string]any{"customText": text}}})
		return b
	}
	p, err := ParseOutcome(q, outcome("Maria\x00DB\x1b]0;pwned\x07\u202e"))
	require.NoError(t, err)
	assert.Equal(t, "MariaDB]0;pwned", p.Custom)

	_, err = ParseOutcome(q, outcome(strings.Repeat("x", 100_000)))
	assert.ErrorContains(t, err, "_meta.customText: a typed answer of 100000 characters; the limit is 1000")
}
