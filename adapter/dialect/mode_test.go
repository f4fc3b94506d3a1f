package dialect

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Each mode has a name of its own for logs and errors, and a value past
// the last is unknown.
func TestEachModeHasItsOwnName(t *testing.T) {
	seen := map[string]Mode{}
	for m := Ask; m.Known(); m++ {
		name := m.String()
		assert.NotEmpty(t, name, "mode %d", int(m))
		_, dup := seen[name]
		assert.False(t, dup, "mode %d is named %q, as mode %d is", int(m), name, int(seen[name]))
		seen[name] = m
	}
	assert.Len(t, seen, 9)
	assert.False(t, modes.Known())
	assert.False(t, Mode(-1).Known())
	assert.Equal(t, "Mode(-1)", Mode(-1).String())
}
