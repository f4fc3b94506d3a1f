package hub

import (
	"os"
	"testing"
)

// TestMain gives the tests a config folder of their own: the hub's key is
// made there (hubkey.Path), and the clients trust what is there, as on a
// user's machine.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hub-config")
	if err != nil {
		panic(err)
	}
	if os.Getenv(keepConfigEnv) == "" { // a test's child keeps its parent's
		os.Setenv("XDG_CONFIG_HOME", dir)
		os.Setenv(keepConfigEnv, "1")
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// keepConfigEnv keeps the config folder a test's child was given.
const keepConfigEnv = "ASKBRIDGE_TEST_KEEP_CONFIG"
