package permission_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/permission"
)

// One set's origin is its session's: its folder (else the askbridge's),
// its mode, its subagent, and what the agent said before it asked; none of
// the other sessions' tables go to the card. The desk and the hub read it
// alike (they had each written it).
func TestASetsOriginIsItsSessions(t *testing.T) {
	o := permission.Origin{Agent: "Claude Code", CWD: "/home/ann",
		Sessions:  map[string]string{"s1": "/src/api", "s2": "/src/web"},
		Subagents: map[string]string{"s2": "subagent of review in /src/web"},
		Modes:     map[string]permission.SessionMode{"s1": {ID: "auto"}}}
	said := &permission.Context{Words: "I will raise the retry count."}

	set, cwd := o.Of("s1", said)
	assert.Equal(t, "/src/api", cwd)
	assert.Equal(t, "auto", set.Mode.ID)
	assert.Empty(t, set.Subagent)
	assert.Same(t, said, set.Context)
	assert.Nil(t, set.Sessions)
	assert.Nil(t, set.Modes)

	set, cwd = o.Of("s2", nil)
	assert.Equal(t, "/src/web", cwd)
	assert.Nil(t, set.Mode)
	assert.Equal(t, "subagent of review in /src/web", set.Subagent)

	_, cwd = o.Of("unknown", nil)
	assert.Equal(t, "/home/ann", cwd, "the askbridge's own folder")
	assert.Len(t, o.Sessions, 2, "o itself is left as it was")
}
