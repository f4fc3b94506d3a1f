package claude

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// Where a free-text field companions the choice (Claude's
// question_<n>_custom), Other stays and carries the text.
func TestFormChoiceWithCompanionKeepsOther(t *testing.T) {
	f, err := dialect.ParseForm("Which database?", []byte(`{"properties":{"question_0":{"type":"string","oneOf":[{"const":"A"},{"const":"B"}]},"question_0_custom":{"type":"string"}}}`), claudeCompanion)
	require.NoError(t, err)
	require.Len(t, f.Questions, 1)
	assert.False(t, f.Questions[0].Kind.Fixed)
	f, err = dialect.ParseForm("", []byte(`{"properties":{"pick":{"type":"string","enum":["A","B"]},"ok":{"type":"boolean"},"name":{"type":"string"}}}`), claudeCompanion)
	require.NoError(t, err)
	require.Len(t, f.Questions, 3)
	assert.True(t, f.Questions[0].Kind.Fixed, "an enum alone")
	assert.True(t, f.Questions[1].Kind.Fixed, "a boolean")
	assert.False(t, f.Questions[2].Kind.Fixed, "a text field is filled by Other")
}

// A choice whose typed companion is a password is secret as a whole.
func TestPasswordCompanionMakesTheChoiceSecret(t *testing.T) {
	f, err := dialect.ParseForm("", []byte(`{"properties":{"question_0":{"type":"string","oneOf":[{"const":"A"}]},"question_0_custom":{"type":"string","format":"password"},"q1":{"type":"string","enum":["x"]}}}`), claudeCompanion)
	require.NoError(t, err)
	assert.True(t, f.Questions[0].Kind.Secret, "a choice whose typed companion is a password")
	assert.False(t, f.Questions[1].Kind.Secret)
}
