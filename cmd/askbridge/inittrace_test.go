package main

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// Every run of the relay pays for what askbridge's own packages do at init,
// whether or not it uses them (conformance is linked for replay, the prompt
// for ask): a package that builds tables or compiles patterns there must do
// it on first use instead (issue 26: the relay's startup and memory).
func TestOwnPackagesInitCheaply(t *testing.T) {
	const maxBytes = 8 << 10
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, askbridgeBin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("askbridge --version: %v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (main|github\.com/askbridge/askbridge/\S+) @.*?, ([0-9]+) bytes, `)
	found := line.FindAllSubmatch(out, -1)
	if len(found) == 0 {
		t.Fatalf("GODEBUG=inittrace=1 printed no init of askbridge's packages:\n%s", out)
	}
	for _, m := range found {
		if n, _ := strconv.Atoi(string(m[2])); n > maxBytes {
			t.Errorf("package %s allocates %d bytes at init, more than %d: make what it builds lazy", m[1], n, maxBytes)
		}
	}
}
