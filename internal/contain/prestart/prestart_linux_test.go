package prestart

import (
	"testing"

	"github.com/askbridge/askbridge/internal/contain/nsinit"
	"github.com/stretchr/testify/assert"
)

func TestItoa(t *testing.T) {
	for n, s := range map[int]string{0: "0", 7: "7", 1000: "1000", 65534: "65534"} {
		assert.Equal(t, s, itoa(n))
	}
}

// What it starts is what nsinit reads.
func TestTheInitsArgumentsAreNsinits(t *testing.T) {
	assert.Equal(t, nsinit.Arg, initArg)
	assert.Equal(t, nsinit.AwaitArg, awaitArg)
}
