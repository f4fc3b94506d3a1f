package asktool

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/mcpask"
)

// The stdio listing carries --mcp-progress to `askbridge mcp` when it is
// not the default; 0 (none) is spelt "0".
func TestStdioListingCarriesTheProgressCeiling(t *testing.T) {
	env := func(progress string) map[string]string {
		dur, err := time.ParseDuration(progress)
		require.NoError(t, err)
		d := &MCPAsk{Config: Config{Command: "/bin/askbridge", Socket: "/tmp/s", Progress: dur}}
		entry, transport, err := d.listing(nil, "tag-1")
		require.NoError(t, err)
		require.Equal(t, mcpStdio, transport)
		var s stdioServer
		require.NoError(t, json.Unmarshal(entry, &s))
		out := map[string]string{}
		for _, e := range s.Env {
			out[e.Name] = e.Value
		}
		return out
	}
	assert.NotContains(t, env("0"), mcpask.ProgressEnv, "the default is not spelt out")
	assert.Equal(t, "0", env("-1ns")[mcpask.ProgressEnv])
	assert.Equal(t, "10m0s", env("10m")[mcpask.ProgressEnv])
}
