package hub

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
)

// A dead identity check: under --hub off an askbridge is connected to no
// hub, and it is undumpable, which hides its executable from a hub that is
// not root; the hub took its agent's `askbridge hub pair` for the user's
// and gave it a code. The hub tells an askbridge by what it can read (its
// name), and a process it cannot read counts as inside. Run as an ordinary
// user (it passed only as root before).
func TestAnUndumpableAskbridgesAgentGetsNoCode(t *testing.T) {
	out := asUser(t, 65534, "nodump-pair")
	assert.Contains(t, out, "REFUSED", out)
	assert.Contains(t, out, "inside an agent's process tree", out)
	assert.NotContains(t, out, "CODE", out)
}

func init() {
	roles["nodump-pair"] = func(t *testing.T) {
		t.Setenv("XDG_CONFIG_HOME", configWithKey(t))
		path := squatSocket(t)
		ln, err := Listen(path)
		require.NoError(t, err)
		h := New(permission.NewBoard(), nil)
		h.Pair(Pairing{Devices: pairing.Memory(), URL: func(code string) string { return "#pair=" + code }})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go h.Serve(ctx, ln)
		// askbridge, not connected to this hub, with its agent below it.
		out, _ := child("nodump", "ASKBRIDGE_TEST_SOCK="+path).CombinedOutput()
		fmt.Printf("%s", out)
	}
	roles["nodump"] = func(t *testing.T) {
		const prSetDumpable = 4
		_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0)
		require.Zero(t, errno)
		out, _ := child("pairask").CombinedOutput() // its agent, dumpable again once it execs
		fmt.Printf("%s", out)
	}
	roles["pairask"] = func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := NewCode(ctx, os.Getenv("ASKBRIDGE_TEST_SOCK"))
		if err != nil {
			fmt.Println("REFUSED", err)
			return
		}
		fmt.Println("CODE", c.Code)
	}
}
