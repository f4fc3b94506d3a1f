package hub

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// An askbridge records the route its set was answered by at the hub: a
// notification's button or the terminal inbox as such (both were "hub"),
// the hub's page as the hub.
func TestTheAskbridgeRecordsTheRouteUsedAtTheHub(t *testing.T) {
	path := socket(t)
	_, hb, _ := startHub(t, path)
	b, _ := report(t, path, "/src/one")
	for _, source := range []permission.Source{permission.SourceNotification, permission.SourceInbox, permission.SourceHub} {
		t.Run(string(source), func(t *testing.T) {
			tk := ask(b, "sess-"+string(source), "Which? ("+string(source)+")")
			list := waitPending(t, hb, 1)
			_, err := hb.ProgressBy(list[0].ID, 0, []permission.Answer{{Labels: []string{"b"}}}, permissiontest.InProcess(source))
			require.NoError(t, err)
			select {
			case <-tk.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("the hub's answer did not reach the askbridge")
			}
			assert.Equal(t, source, tk.Result().Source)
			waitPending(t, hb, 0)
		})
	}
}
