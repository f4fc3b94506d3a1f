package conformance

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/askbridge/askbridge/internal/pty"
	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the want-* sections of the fixtures from what askbridge does now")

func fixtures(t *testing.T) []string {
	files, err := filepath.Glob("testdata/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// TestFixtures replays every fixture against the adapter in process.
func TestFixtures(t *testing.T) {
	for _, file := range fixtures(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			f, err := Load(file)
			require.NoError(t, err)
			got, err := ReplayInProcess(t.Context(), f)
			require.NoError(t, err)
			if *update {
				f.Update(got)
				require.NoError(t, os.WriteFile(file, f.Format(), 0o644))
				return
			}
			if err := f.Check(got); err != nil {
				t.Errorf("%s:\n%v", file, err)
			}
		})
	}
}

func TestParseRejectsUnknownAndDuplicateSections(t *testing.T) {
	_, err := Parse("x.txtar", []byte("comment\n-- client --\n{}\n-- agent --\n-- extra --\n"))
	assert.EqualError(t, err, `x.txtar: unknown section "extra" (want client, agent, desk, want-client, want-agent)`)
	_, err = Parse("x.txtar", []byte("-- client --\n-- agent --\n-- client --\n"))
	assert.EqualError(t, err, `x.txtar: duplicate section "client"`)
	_, err = Parse("x.txtar", []byte("-- client --\nnot json\n-- agent --\n"))
	assert.EqualError(t, err, "x.txtar: section client: line 1 is not JSON: not json")
	f, err := Parse("x.txtar", []byte("Says why.\nflags: --max-rounds=1 --render=permission\n-- client --\n{\"id\":1}\n-- agent --\n"))
	require.NoError(t, err)
	assert.Equal(t, []string{"--max-rounds=1", "--render=permission"}, f.Flags)
}

func TestNormalizeReplacesOnlyGeneratedIDs(t *testing.T) {
	a := []byte(`{"b":1,"toolCallId":"askbridge-0123456789abcdef","id":"askbridge-3"}`)
	b := []byte(`{"id":"askbridge-3","toolCallId":"askbridge-fedcba9876543210","b":1}`)
	assert.Equal(t, Normalize(a), Normalize(b))
	assert.Empty(t, Diff([][]byte{a}, [][]byte{b}))
	assert.Contains(t, Diff([][]byte{a}, [][]byte{[]byte(`{"b":2}`)}), `-   "b": 1`)
}

func TestFromRecordingAndZedLog(t *testing.T) {
	rec := []byte(`{"dir":"c2a","t":0.1,"msg":{"jsonrpc":"2.0","id":1,"method":"initialize"}}
{"dir":"a2c","t":0.2,"msg":{"jsonrpc":"2.0","id":1,"result":{}}}
{"dir":"a2c","askbridge":true,"t":0.3,"msg":{"jsonrpc":"2.0","id":"askbridge-1","method":"session/request_permission"}}
`)
	f, err := FromRecording("r.jsonl", rec)
	require.NoError(t, err)
	assert.Equal(t, []string{`{"jsonrpc":"2.0","id":1,"method":"initialize"}`}, strs(f.Client))
	assert.Equal(t, []string{`{"jsonrpc":"2.0","id":1,"result":{}}`}, strs(f.Agent))
	_, err = FromRecording("r.jsonl", []byte("{\"x\":1}\n"))
	assert.ErrorContains(t, err, "line 1 is not a --record entry")
	_, err = FromRecording("r.jsonl", []byte(`{"dir":"sideways","t":0,"msg":{}}`))
	assert.ErrorContains(t, err, `line 1: dir "sideways", want c2a, a2c or desk`)

	zed := []byte(`[{"_direction":"outgoing","_type":"request","id":0,"method":"initialize","params":{}},{"_direction":"incoming","_type":"response","id":0,"result":{}}]`)
	f, err = FromRecording("zed.json", zed)
	require.NoError(t, err)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`, string(f.Client[0]))
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":0,"result":{}}`, string(f.Agent[0]))
}

func strs(b [][]byte) []string {
	var out []string
	for _, l := range b {
		out = append(out, string(l))
	}
	return out
}

// TestFixturesThroughTheBinary replays fixtures against the built askbridge,
// the agent side playing in a child process as a real agent would.
func TestFixturesThroughTheBinary(t *testing.T) {
	bin := os.Getenv(testenv.BinEnv)
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "askbridge")
		out, err := exec.Command("go", "build", "-o", bin, "../cmd/askbridge").CombinedOutput()
		require.NoError(t, err, string(out))
	}
	for _, file := range fixtures(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			f, err := Load(file)
			require.NoError(t, err)
			if raw, _ := os.ReadFile(file); bytes.Contains(raw, []byte("ASKBRIDGE_SOCKET")) || bytes.Contains(raw, []byte(`"type":"http"`)) {
				// askbridge lists its MCP ask server, stdio or http, only
				// with its socket.
				testenv.SkipUnderWine(t, testenv.NoUnixSockets)
			}
			got, err := ReplayBinary(t.Context(), bin, file, f, nil)
			if errors.Is(err, pty.ErrUnsupported) {
				t.Skip("the desk shows its pairing code on askbridge's terminal, and this system's are not opened here:", err)
			}
			require.NoError(t, err)
			if err := f.Check(got); err != nil {
				t.Errorf("%s:\n%v", file, err)
			}
		})
	}
}
