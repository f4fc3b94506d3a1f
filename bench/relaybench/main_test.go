//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets the test binary be the fake agent, as relaybench is.
func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == agentArg {
		if err := runAgent(os.Args[2]); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// agentArgv is the fake agent's command line with n notifications to
// stream, and the file of the editor's n notifications.
func agentArgv(t *testing.T, n int) ([]string, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "updates.jsonl")
	_, err := writeUpdates(file, n)
	require.NoError(t, err)
	up := filepath.Join(t.TempDir(), "uploads.jsonl")
	_, err = writeUploads(up, n)
	require.NoError(t, err)
	self, err := os.Executable()
	require.NoError(t, err)
	return []string{self, agentArg, file}, up
}

func TestMeasureDirect(t *testing.T) {
	var res result
	argv, up := agentArgv(t, 500)
	require.NoError(t, measure(&res, argv, up, 500, 20, 10*time.Second))
	assert.Positive(t, res.best)
	assert.Positive(t, res.up)
	assert.Positive(t, res.privKiB)
	assert.LessOrEqual(t, res.privKiB, res.rssKiB, "private memory is part of RSS")
	assert.Len(t, res.lat, 20)
	assert.Len(t, res.startups, 1)
	assert.Equal(t, 500, res.n)
}

// A relay that loses one notification must not be measured as if it had
// delivered them all.
func TestMeasureCatchesADroppedNotification(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("needs sed")
	}
	// Lines 1 and 2 are the handshake's results; line 5 is a notification.
	relay := []string{"sh", "-c", `"$@" | sed -u 5d`, "sh"}
	var res result
	argv, up := agentArgv(t, 50)
	err := measure(&res, append(relay, argv...), up, 50, 5, 10*time.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "49 of 50 notifications")
}

// The other way too: one of the editor's notifications lost is caught.
func TestMeasureCatchesADroppedUpload(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("needs sed")
	}
	// The editor's lines 1-3 are initialize, session/new and the streaming
	// prompt; its notifications start at line 4.
	relay := []string{"sh", "-c", `sed -u 6d | "$@"`, "sh"}
	var res result
	argv, up := agentArgv(t, 50)
	err := measure(&res, append(relay, argv...), up, 50, 5, 10*time.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "counted 49 of 50")
}

// A relay that stops relaying is killed at the limit and said to be.
func TestMeasureKillsAStalledRelay(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Skip("needs sed")
	}
	relay := []string{"sh", "-c", `"$@" | sed -u -n 1,3p`, "sh"}
	var res result
	start := time.Now()
	argv, up := agentArgv(t, 50)
	err := measure(&res, append(relay, argv...), up, 50, 5, time.Second)
	require.Error(t, err)
	assert.Less(t, time.Since(start), 8*time.Second)
	assert.Contains(t, err.Error(), "longer than its limit", "killed at the limit, and said to be")
}

func TestRelayFlag(t *testing.T) {
	var r relayFlags
	require.NoError(t, r.Set("sdk=node bench/sdkproxy.mjs --"))
	assert.Equal(t, contestant{name: "sdk", relay: []string{"node", "bench/sdkproxy.mjs", "--"}}, r[0])
	for _, bad := range []string{"node x", "=node", "sdk=", "sdk=  "} {
		assert.Error(t, r.Set(bad), bad)
	}
}

func TestReportMarksAFailedPeer(t *testing.T) {
	lat := []time.Duration{time.Microsecond, 2 * time.Microsecond}
	all := []contestant{{name: "cat"}, {name: "askbridge"}, {name: "peer"}}
	res := []result{
		{n: 10, best: time.Millisecond, up: time.Millisecond, lat: lat, startups: []time.Duration{time.Millisecond}},
		{n: 10, best: 2 * time.Millisecond, up: 4 * time.Millisecond, lat: lat, startups: []time.Duration{time.Millisecond}},
		{err: os.ErrDeadlineExceeded},
	}
	var out bytes.Buffer
	report(&out, all, res)
	assert.Contains(t, out.String(), "| askbridge | 5000 | 0.50 | 2500 | 0.25 |")
	assert.Contains(t, out.String(), "| peer | failed:")
	assert.Equal(t, 1, strings.Count(out.String(), "askbridge targets"))
}

// A ratio just short of its target is printed short of it: 0.8964 reads
// 0.89, not the 0.90 it would round to.
func TestReportRoundsRatiosDown(t *testing.T) {
	lat := []time.Duration{time.Microsecond, 2 * time.Microsecond}
	one := []time.Duration{time.Millisecond}
	all := []contestant{{name: "cat"}, {name: limitRow}, {name: askbridgeRow}}
	res := []result{
		{n: 10000, best: time.Second, up: time.Second, lat: lat, startups: one},
		{n: 10000, best: 10 * time.Second, up: 10 * time.Second, lat: lat, startups: one},
		{n: 10000, best: 11156 * time.Millisecond, up: 10 * time.Second, lat: lat, startups: one},
	}
	var out bytes.Buffer
	report(&out, all, res)
	assert.Contains(t, out.String(), "agent→editor 0.89x MISSED, editor→agent 1.00x met")
}

// The previous release's figures are printed against the limit beside
// askbridge's, from the same run.
func TestReportComparesThePreviousReleaseWithTheLimit(t *testing.T) {
	lat := []time.Duration{time.Microsecond, 2 * time.Microsecond}
	one := []time.Duration{time.Millisecond}
	all := []contestant{{name: "cat"}, {name: limitRow}, {name: askbridgeRow}, {name: previousRow + " v1"}}
	res := []result{
		{n: 1000, best: time.Second, up: time.Second, lat: lat, startups: one},
		{n: 1000, best: 2 * time.Second, up: 2 * time.Second, lat: lat, startups: one},
		{n: 1000, best: 4 * time.Second, up: 2 * time.Second, lat: lat, startups: one},
		{n: 1000, best: 2 * time.Second, up: 4 * time.Second, lat: lat, startups: one},
	}
	var out bytes.Buffer
	report(&out, all, res)
	assert.Contains(t, out.String(), "against the limit (io.Copy: agent→editor 500 msg/s, editor→agent 500): askbridge 250 (0.50x), 500 (1.00x); previous release v1 500 (1.00x), 250 (0.50x)\n")
}
