package relay

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAgentEnvDropsAskbridgesSecrets(t *testing.T) {
	base := []string{"PATH=/bin", "ASKBRIDGE_DESK_TOKEN=d", "askbridge_notify_token=n", "ASKBRIDGE_HUB_TOKEN=h", "ASKBRIDGE_X_SECRET=x",
		"ASKBRIDGE_NOTIFY_URL=https://ntfy.sh/topic", "ASKBRIDGE_SESSION=s", "ASKBRIDGE_SOCKET=/old", "HOME=/h", "GITHUB_TOKEN=g", "ASKBRIDGE_E2E_AGENT=1"}
	got := AgentEnv(base, []string{"ASKBRIDGE_SOCKET=/new"})
	assert.Equal(t, []string{"PATH=/bin", "ASKBRIDGE_SESSION=s", "ASKBRIDGE_SOCKET=/old", "HOME=/h", "GITHUB_TOKEN=g", "ASKBRIDGE_E2E_AGENT=1", "ASKBRIDGE_SOCKET=/new"}, got,
		"askbridge's secrets go; the user's own (GITHUB_TOKEN, which the agent may need) and askbridge's other variables stay")
}
