package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A lasting option's _meta.permission says what it grants: its title,
// description and changes, each change by its description (else what it
// names), one line each, cleaned of control characters.
func TestAnOptionSaysWhatItGrants(t *testing.T) {
	o := ApprovalOption{OptionID: "always", Name: "Always allow", Kind: "allow_always", Meta: []byte(`{"permission":{"version":1,"title":"Allow git push from now on","changes":[
		{"type":"addRules","description":"Allow Bash(git push:*)\nin this project"},
		{"type":"addDirectories","directories":["/src/x"],"path":"/src/x"},
		"set mode acceptEdits\u001b[31m"]}}`)}
	g := o.Grant()
	assert.True(t, g.Lasting)
	assert.Equal(t, "Allow git push from now on", g.Title)
	assert.Equal(t, []string{"Allow Bash(git push:*) in this project", "type addDirectories, path /src/x", "set mode acceptEdits[31m"}, g.Changes)
	assert.Equal(t, "lasting: the agent will not ask again — Allow git push from now on — changes: Allow Bash(git push:*) in this project; type addDirectories, path /src/x; set mode acceptEdits[31m", g.Text(o.Kind))

	once := ApprovalOption{OptionID: "allow", Name: "Allow", Kind: "allow_once"}
	assert.False(t, once.Grant().Lasting)
	assert.Empty(t, once.Grant().Text(once.Kind), "a one-time option says nothing more")
	never := ApprovalOption{OptionID: "never", Name: "Never", Kind: "reject_always", Meta: []byte(`{"permission":"not an object"}`)}
	assert.Equal(t, "lasting: refused from now on", never.Grant().Text(never.Kind), "a _meta it cannot read is left out")
}
