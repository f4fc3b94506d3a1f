//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hub says at start what it trusts, and trusts no key it did not make:
// here the key and a sealed devices file written while no hub ran, as an
// agent not contained (or one planted before askbridge hid its folders on
// a fresh account) would. The user's hub ran as an ordinary user.
func TestHubSaysWhatItTrustsAndRefusesAKeyItDidNotMake(t *testing.T) {
	t.Parallel()
	h := newHubHome(t)
	out, exited := h.start(t)
	assert.False(t, exited, out)
	assert.Regexp(t, `askbridge: hub key fingerprint [0-9a-f]{16} \(.*hub-key, made now\)`, out)
	assert.Contains(t, out, "askbridge: no paired device")

	planted := h.plant(t)
	out, exited = h.start(t)
	assert.True(t, exited, "the hub served with a key it did not make:\n%s", out)
	assert.Contains(t, out, "askbridge hub: the hub's key is not one this hub made or was told to trust")
	assert.Contains(t, out, "--trust-key "+planted)
	assert.NotContains(t, out, "a phone of the agent's")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(out), "\n")+1, "one line: %s", out)

	out, exited = h.start(t, "--trust-key", planted)
	assert.False(t, exited, out)
	assert.Contains(t, out, "askbridge: hub key fingerprint "+planted)
	assert.Contains(t, out, `"a phone of the agent's", paired `)
	assert.Contains(t, out, "no passkey, approves without one")
}

// hubHome is a user's home where no hub ran yet.
type hubHome struct {
	dir, home string
	bin       string // askbridge, where the hub's user can run it
	uid       int
	env       []string
}

func newHubHome(t *testing.T) *hubHome {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755))
	h := &hubHome{dir: dir, home: filepath.Join(dir, "home"), uid: os.Getuid()}
	if h.uid == 0 {
		h.uid = 65534
	}
	h.bin = filepath.Join(dir, "askbridge")
	testenv.CopyExecutable(t, askbridgeBin, h.bin)
	run := filepath.Join(dir, "run")
	for _, d := range []string{h.home, run} {
		require.NoError(t, os.Mkdir(d, 0o700))
		require.NoError(t, os.Lchown(d, h.uid, h.uid))
	}
	h.env = []string{"PATH=/usr/bin:/bin", "HOME=" + h.home, "XDG_RUNTIME_DIR=" + run, "GORACE=atexit_sleep_ms=0"}
	return h
}

// plant writes a key of its own over the hub's and a devices file sealed
// with it, and returns the key's fingerprint.
func (h *hubHome) plant(t *testing.T) string {
	k, err := hubkey.Open(filepath.Join(h.dir, "agent", "hub-key"))
	require.NoError(t, err)
	devices, err := pairing.Open(filepath.Join(h.home, ".local", "state", "askbridge", "hub-devices.json"), k.Derive("hub-devices.json"))
	require.NoError(t, err)
	_, _, err = devices.Add("a phone of the agent's", "", nil, nil, true)
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(h.dir, "agent", "hub-key"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(h.home, ".config", "askbridge", "hub-key"), b, 0o600))
	filepath.Walk(h.home, func(f string, _ os.FileInfo, _ error) error { return os.Lchown(f, h.uid, h.uid) })
	return hubkey.Fingerprint(k.Public())
}

// start runs `askbridge hub` as the user until it has said what it trusts
// (then stops it) or exits, and returns what it wrote.
func (h *hubHome) start(t *testing.T, args ...string) (string, bool) {
	cmd := exec.Command(h.bin, append([]string{"hub", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = h.env
	if os.Getuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(h.uid), Gid: uint32(h.uid)}}
	}
	var mu sync.Mutex
	var out bytes.Buffer
	cmd.Stderr = writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return out.Write(p) })
	require.NoError(t, cmd.Start())
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	said := func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		select {
		case <-exited:
			return said(), true
		default:
		}
		if strings.Contains(said(), "paired device") {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-exited
	}
	return said(), false
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
