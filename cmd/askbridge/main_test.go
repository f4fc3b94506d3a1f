package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
)

// askbridgeBin is the binary the end-to-end tests run, built once.
var askbridgeBin string

// TestMain builds askbridge for the end-to-end tests, and lets the test
// binary play a scripted agent (agent_test.go) when re-executed with
// ASKBRIDGE_E2E_AGENT.
func TestMain(m *testing.M) {
	if os.Getenv("ASKBRIDGE_E2E_AGENT") != "" {
		runScriptedAgent()
		return
	}
	// The scripted clients here answer at once, on purpose: the guard
	// against automatic answers is off for every askbridge the tests start,
	// but where a test turns it on.
	os.Setenv(minAnswerEnv, "0")
	dir, err := os.MkdirTemp("", "askbridge-e2e")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config")) // the hub key the tests' hubs make and their clients trust
	// A binary built beforehand where there is no Go toolchain (make
	// test-windows, under Wine).
	askbridgeBin = os.Getenv(testenv.BinEnv)
	if askbridgeBin == "" {
		askbridgeBin = filepath.Join(dir, "askbridge")
		// -trimpath, as make test compiles the packages: they are reused.
		if out, err := exec.Command("go", "build", "-race", "-trimpath", "-o", askbridgeBin, ".").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building askbridge: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	code := m.Run()
	fmt.Println(schemaTally.summary())
	os.RemoveAll(dir)
	os.Exit(code)
}

// e2eAgentCommand is the command line that runs the scripted agent.
func e2eAgentCommand(t *testing.T) []string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe, "-test.run=^$"}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
