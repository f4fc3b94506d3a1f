package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/route/desk"
)

// The desk goes beyond loopback over plain HTTP only when both flags say
// so, and then warns at every start, as the hub's --allow-remote-http does.
func TestDeskBeyondLoopbackNeedsTheHTTPFlag(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		err  string
	}{
		{args: []string{"--desk", "127.0.0.1:0"}},
		{args: []string{"--desk", "localhost:0", "--desk-allow-remote"}},
		{args: []string{"--desk", "0.0.0.0:7777"}, err: "unless --desk-allow-remote"},
		{args: []string{"--desk", "0.0.0.0:7777", "--desk-allow-remote"}, err: "add --desk-allow-remote-http"},
		{args: []string{"--desk", ":7777", "--desk-allow-remote"}, err: "add --desk-allow-remote-http"},
		{args: []string{"--desk", "100.64.1.2:7777", "--desk-allow-remote", "--desk-allow-remote-http"}},
	} {
		fs, o := proxyFlags()
		require.NoError(t, fs.Parse(c.args))
		err := o.check()
		if c.err == "" {
			assert.NoError(t, err, c.args)
			continue
		}
		require.Error(t, err, c.args)
		assert.Contains(t, err.Error(), c.err, c.args)
	}
	var b bytes.Buffer
	desk.WarnClearText(&b, "0.0.0.0:7777")
	assert.Contains(t, b.String(), "level=WARN")
	assert.Contains(t, b.String(), "clear text")
	assert.Contains(t, b.String(), "desk=0.0.0.0:7777")
}
