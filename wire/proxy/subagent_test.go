package proxy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/permission"
)

// A subagent's sets say whose subagent it is and in which folder: its own,
// else its parent's; a later update that omits the title keeps the task.
func TestNoteSubagentNamesTheTaskAndFolder(t *testing.T) {
	i := &permission.Origin{Sessions: map[string]string{"s1": "/src/api"}}
	title, cwd := "Write the migration", "/src/api/db"
	noteSubagent(i, "s1", "sub-1", &title, nil)
	assert.Equal(t, "subagent of Write the migration in /src/api", i.Subagents["sub-1"])
	assert.Equal(t, "/src/api", i.Sessions["sub-1"], "the parent's folder until it names its own")
	noteSubagent(i, "s1", "sub-1", nil, &cwd)
	assert.Equal(t, "/src/api/db", i.Sessions["sub-1"])
	assert.Equal(t, "subagent of Write the migration in /src/api", i.Subagents["sub-1"], "the task is unchanged")
	noteSubagent(i, "sub-1", "sub-2", nil, nil)
	assert.Equal(t, "subagent of sub-1 in /src/api/db", i.Subagents["sub-2"])
}
