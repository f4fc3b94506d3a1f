package conformance

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The marks of an uncontained agent come off, and nothing else does.
func TestUnmarkedTakesOffTheUncontainedMarksOnly(t *testing.T) {
	marked := `{"toolCall":{"title":"⚠ not contained: anything this agent starts can act as you — rm -rf build"},"options":[{"name":"Allow (agent not contained)","kind":"allow_once"},{"name":"Reject","kind":"reject_once"}]}`
	plain := `{"toolCall":{"title":"rm -rf build"},"options":[{"name":"Allow","kind":"allow_once"},{"name":"Reject","kind":"reject_once"}]}`
	got := unmarked([][]byte{[]byte(marked), []byte(plain)})
	assert.Equal(t, plain, string(got[0]))
	assert.Equal(t, plain, string(got[1]))
}
