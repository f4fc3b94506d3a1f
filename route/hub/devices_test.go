package hub

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/pairing"
)

// pairHelperEnv makes the test binary a client asking the hub on the
// socket it names for a pairing code (TestPairHelper), as `askbridge hub
// pair` does.
const pairHelperEnv = "ASKBRIDGE_TEST_PAIR_HELPER"

func TestPairHelper(t *testing.T) {
	path := os.Getenv(pairHelperEnv)
	if path == "" {
		t.Skip("a helper process of TestAnAgentGetsNoPairingCode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := NewCode(ctx, path)
	if err != nil {
		fmt.Println("REFUSED", err)
		return
	}
	fmt.Println("CODE", c.Code)
}

// askCode runs the helper as a child of this process.
func askCode(t *testing.T, path string) string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestPairHelper$")
	cmd.Env = append(os.Environ(), pairHelperEnv+"="+path)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	return string(out)
}

// The hub gives a pairing code over its socket to a process of the user,
// and lists and revokes devices; a process under a connected askbridge
// (its agent, or what the agent started) gets none: with a code it could
// pair a device of its own, software passkey included, and approve.
func TestAnAgentGetsNoPairingCode(t *testing.T) {
	path := socket(t)
	h, _, _ := startHub(t, path)
	devices := pairing.Memory()
	h.Pair(Pairing{Devices: devices, URL: func(code string) string { return "http://localhost:1/#pair=" + code }})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	c, err := NewCode(ctx, path)
	require.NoError(t, err)
	require.NoError(t, devices.Redeem(c.Code, "test"), "the code the socket gave is the hub's")
	assert.Equal(t, "http://localhost:1/#pair="+c.Code, c.URL)
	assert.WithinDuration(t, time.Now().Add(pairing.CodeTTL), c.Until, 5*time.Second)
	dev, _, err := devices.Add("phone", "", nil, nil, false)
	require.NoError(t, err)
	list, err := Devices(ctx, path)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, dev.ID, list[0].ID)
	assert.Empty(t, list[0].Hash, "no hash leaves the hub")
	assert.ErrorContains(t, Revoke(ctx, path, "nope"), "no such device")

	require.NoError(t, Revoke(ctx, path, dev.ID))
	assert.Empty(t, devices.List())

	assert.Contains(t, askCode(t, path), "CODE ", "a child of a process that is no askbridge")
	if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
		report(t, path, "/src") // this process is now an askbridge connected to the hub
		require.Eventually(t, func() bool { return len(h.Instances()) == 1 && h.Instances()[0].PID != 0 }, 5*time.Second, 10*time.Millisecond)
		out := askCode(t, path)
		assert.True(t, strings.HasPrefix(out, "REFUSED "), out)
		assert.Contains(t, out, "may not pair")
	}
}
