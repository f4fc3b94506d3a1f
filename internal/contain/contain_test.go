package contain

import (
	"errors"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestModeTakesAutoOnOff(t *testing.T) {
	var m Mode
	assert.Equal(t, "auto", m.String(), "the zero value is the default")
	for _, v := range []string{"auto", "on", "off"} {
		require.NoError(t, m.Set(v))
		assert.Equal(t, v, m.String())
	}
	assert.EqualError(t, m.Set("yes"), `"yes" is not auto, on or off`)
}

// An agent that is not there is the agent's error, not a refusal to
// contain it: askbridge must not start it uncontained instead.
func TestStartOfAMissingAgentIsNotARefusal(t *testing.T) {
	_, err := Start(exec.Command("askbridge-no-such-agent"), Options{})
	require.Error(t, err)
	if errors.Is(err, ErrRefused) {
		t.Skip("this system does not contain: " + err.Error())
	}
	assert.ErrorIs(t, err, exec.ErrNotFound)
}
