package adapter

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
)

func TestAgentKindsComeFromTheTable(t *testing.T) {
	assert.Equal(t, []string{"auto", "opencode", "generic"}, AgentKinds(Dialects()))
	assert.NoError(t, CheckAgentKind(Dialects(), "opencode"))
	assert.EqualError(t, CheckAgentKind(Dialects(), "cursor"), `--agent-kind "cursor": want auto, opencode or generic`)
	assert.Equal(t, []string{"auto", "toy", "generic"}, AgentKinds([]dialect.Dialect{toyLauncher{}}), "a new launcher is a new kind")
}

// toyLauncher is a dialect that launches its agent, and claims nothing.
type toyLauncher struct{}

func (toyLauncher) Name() string                                      { return "toy" }
func (toyLauncher) Hooks() []dialect.Hook                             { return nil }
func (toyLauncher) Claim(dialect.Host, *relay.Message) *dialect.Claim { return nil }
func (toyLauncher) Recognise([]string) bool                           { return false }
func (toyLauncher) Launch(a []string) ([]string, []string, error)     { return a, nil, nil }
