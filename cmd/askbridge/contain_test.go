package main

import (
	"io"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An uncontained agent's askbridge tells the desk's and the hub's cards so
// (the page shows Instance.Uncontained on every approval card).
func TestUncontainedAgentIsNamedOnTheCards(t *testing.T) {
	self := newSelfOrigin(permission.NewBoard(), []string{"agent"})
	var hubs hub.Instance
	toHub := func(fn func(*hub.Instance)) { fn(&hubs) }
	a, err := relay.StartAgent(e2eAgentCommand(t), []string{"ASKBRIDGE_E2E_AGENT=1"}, nil) // the scripted agent: never contained here
	require.NoError(t, err)
	defer a.Stop(time.Second)

	showContainment(self.update, toHub)(a)
	inst, _ := self.origin("any")
	assert.Equal(t, "not contained: anything this agent starts can act as you", inst.(hub.Instance).Uncontained)
	assert.Equal(t, relay.UncontainedWarning, hubs.Uncontained)
}

func TestContainFlagTakesAutoOnOff(t *testing.T) {
	for _, v := range []string{"auto", "on", "off"} {
		fs, o := proxyFlags()
		require.NoError(t, fs.Parse([]string{"--contain", v}))
		assert.Equal(t, v, o.contain.String())
	}
	fs, _ := proxyFlags()
	fs.SetOutput(io.Discard)
	err := fs.Parse([]string{"--contain", "maybe"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"maybe" is not auto, on or off`)
}
