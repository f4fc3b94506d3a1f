//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The notifier flags set once on the hub: its --on-question hook hears of
// a set an askbridge reported, asked and then answered at the editor, with
// the hub's page as the desk to answer at.
func TestE2EHubNotifies(t *testing.T) {
	dir, err := os.MkdirTemp("", "abhubn")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "hub.sock")
	t.Setenv("ASKBRIDGE_HUB", sock)
	h := startHubProc(t, sock, "--on-question", `cat > "`+dir+`/$ASKBRIDGE_EVENT.json"`)

	c := startClient(t)
	s := c.hubSetup(dir)
	c.prompt(s, "_askbridge/ask", map[string]any{"questions": []any{question("Ship it?", "Ship", false, "yes", "no")}})
	req := c.permissionRequest()

	asked := hookDoc(t, filepath.Join(dir, "asked.json"), 5*time.Second)
	assert.Equal(t, "Ship it?", asked["questions"].([]any)[0].(map[string]any)["question"])
	assert.Equal(t, h.url+"/", asked["deskUrl"], "the hub's page answers it; the link carries no credential")
	sets := h.waitSets(1, 5*time.Second)
	assert.Equal(t, sets[0].ID, asked["id"], "the hub's id for the set")

	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"yes"}}`)
	assert.Contains(t, c.agentSaw(), `"Ship it?":"yes"`)
	answered := hookDoc(t, filepath.Join(dir, "answered.json"), 5*time.Second)
	assert.Equal(t, "yes", answered["answers"].([]any)[0].(map[string]any)["answer"])
}
