package cliflag

import (
	"bytes"
	"flag"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A duration given without a unit says what it wants; -h prints the usage
// and the flags with two dashes, on stdout, and is no error.
func TestParseSaysWhatADurationWants(t *testing.T) {
	fs := flag.NewFlagSet("askbridge x", flag.ContinueOnError)
	fs.Duration("wait", time.Second, "how long to wait")
	var stdout, stderr bytes.Buffer
	code, done := Parse(fs, "Usage: askbridge x", []string{"--wait", "5"}, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.True(t, done)
	assert.Contains(t, stderr.String(), "--wait 5: give a unit, e.g. 5m")

	stderr.Reset()
	code, done = Parse(fs, "Usage: askbridge x", []string{"-h"}, &stdout, &stderr)
	assert.Equal(t, 0, code)
	assert.True(t, done)
	assert.Contains(t, stdout.String(), "Usage: askbridge x\n\nFlags:\n  --wait duration\n")
	assert.Empty(t, stderr.String())
}

func TestClosest(t *testing.T) {
	names := []string{"demo", "hub", "inbox", "record-fixture"}
	assert.Equal(t, "demo", Closest("demos", names))
	assert.Equal(t, "hub", Closest("hbu", names), "a swap is one edit")
	assert.Equal(t, "record-fixture", Closest("recordfixture", names))
	assert.Empty(t, Closest("cat", names))
}
