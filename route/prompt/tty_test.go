package prompt

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The TTY prompter itself is driven in a real terminal by
// cmd/askbridge/tty_test.go; these are its pure parts.

func TestTTYSummaryAndTrimmedLines(t *testing.T) {
	tty := &TTY{}
	assert.Equal(t, "Go, C", tty.summary(Reply{IDs: []string{"Go", "C"}}))
	assert.Equal(t, `Go, "Zig" (typed)`, tty.summary(Reply{IDs: []string{"Go", otherID}, Custom: "Zig"}))
	assert.Equal(t, "┃ > a\n\n┃   b", trimLines("┃ > a    \n   \n┃   b "))
}
