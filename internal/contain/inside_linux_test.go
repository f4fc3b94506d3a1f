package contain

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Outside any container, nothing says inside: the hub runs where the user
// runs it (the refusal inside is cmd/askbridge's contained test).
func TestNotInsideOutside(t *testing.T) {
	inside, why := Inside()
	assert.False(t, inside, why)
}
