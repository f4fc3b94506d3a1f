package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runBinary runs the built askbridge with args and stdin, bounded in time.
func runBinary(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, askbridgeBin, args...)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0", "ASKBRIDGE_SOCKET=")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("askbridge %v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// builtVersion is the main module's version the toolchain recorded in the
// binary: what askbridge --version must print.
func builtVersion(t *testing.T) string {
	out, err := exec.Command("go", "version", "-m", askbridgeBin).Output()
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^\s*mod\s+github.com/askbridge/askbridge\s+(\S+)`).FindStringSubmatch(string(out))
	require.NotNil(t, m, "go version -m shows no main module:\n%s", out)
	return m[1]
}

func TestCLIBasicsThroughTheBinary(t *testing.T) {
	t.Parallel()
	testenv.SkipUnderWine(t, testenv.NoGoToolchain) // go version -m
	version := "askbridge " + builtVersion(t) + " ("
	_, mainHelp, _ := runBinary(t, "", "help")
	helpOf := map[string]string{}
	for _, sub := range []string{"ask", "demo", "replay", "record-fixture", "version", "help"} {
		_, helpOf[sub], _ = runBinary(t, "", "help", sub)
	}
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string // a prefix of stdout ("" for none)
		sameAs     string // stdout equals this text
		stderr     string // stderr equals this text
		stderrHave string // stderr contains this text
	}{
		{name: "--version", args: []string{"--version"}, stdout: version},
		{name: "version", args: []string{"version"}, stdout: version},
		{name: "help", args: []string{"help"}, stdout: "askbridge makes an agent's questions work in every ACP client.\n\nUsage:\n"},
		{name: "-h", args: []string{"-h"}, sameAs: mainHelp},
		{name: "--help", args: []string{"--help"}, sameAs: mainHelp},
		{name: "ask -h", args: []string{"ask", "-h"}, stdout: "Usage: askbridge ask '{\"questions\":[...]}'\n", sameAs: helpOf["ask"]},
		{name: "ask --help", args: []string{"ask", "--help"}, sameAs: helpOf["ask"]},
		{name: "demo -h", args: []string{"demo", "-h"}, stdout: "Usage: askbridge demo [--desk ADDR] [--hub auto|off|SOCKET] [--script FILE]\n", sameAs: helpOf["demo"]},
		{name: "replay -h", args: []string{"replay", "-h"}, stdout: "Usage: askbridge replay ", sameAs: helpOf["replay"]},
		{name: "record-fixture -h", args: []string{"record-fixture", "-h"}, stdout: "Usage: askbridge record-fixture ", sameAs: helpOf["record-fixture"]},
		{name: "version -h", args: []string{"version", "-h"}, stdout: "Usage: askbridge version", sameAs: helpOf["version"]},
		{name: "help -h", args: []string{"help", "-h"}, stdout: "Usage: askbridge help [SUBCOMMAND]", sameAs: helpOf["help"]},
		{name: "help of no subcommand", args: []string{"help", "nope"}, code: 2, stderrHave: `askbridge help: no subcommand "nope"; there are ask, demo, help, `},
		{name: "help hides the internal subcommands", args: []string{"help", "__demo-agent"}, code: 2, stderrHave: `no subcommand "__demo-agent"`},
		{name: "bad flag", args: []string{"--bogus"}, code: 2, stderr: "askbridge: flag provided but not defined: -bogus\nRun 'askbridge -h' for usage.\n"},
		{name: "bad subcommand flag", args: []string{"replay", "-bogus", "x.txtar"}, code: 2, stderr: "askbridge replay: flag provided but not defined: -bogus\nRun 'askbridge replay -h' for usage.\n"},
		{name: "no agent", args: nil, code: 2, stderrHave: "Usage:\n  askbridge [flags] -- AGENT [ARGS...]"},
		{name: "agent not found", args: []string{"--", "askbridge-no-such-agent", "--acp"}, code: 1,
			stderr: "askbridge: cannot start agent \"askbridge-no-such-agent\": executable file not found in $PATH\n"},
		{name: "agent not executable", args: []string{"--", "/dev/null"}, code: 1,
			stderr: "askbridge: cannot start agent \"/dev/null\": permission denied\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runBinary(t, "", tt.args...)
			assert.Equal(t, tt.code, code, "exit code; stderr: %s", errOut)
			if tt.code == 0 {
				assert.Empty(t, errOut, "help and version write only to stdout")
				assert.NotEmpty(t, out)
			} else {
				assert.Empty(t, out, "errors go to stderr")
			}
			assert.True(t, strings.HasPrefix(out, tt.stdout), "stdout starts with %q:\n%s", tt.stdout, out)
			if tt.sameAs != "" {
				assert.Equal(t, tt.sameAs, out)
			}
			if tt.stderr != "" {
				assert.Equal(t, tt.stderr, errOut)
			}
			assert.Contains(t, errOut, tt.stderrHave)
			assert.NotContains(t, errOut, "level=", "plain sentences, not log records")
		})
	}
}

func TestCrashedAgentsStderrReachesTheClientThroughTheBinary(t *testing.T) {
	t.Parallel()
	testenv.NeedShell(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	agent := `read line; echo "agent: loading config" >&2; echo "Error: no API key (set ANTHROPIC_API_KEY)" >&2; exit 3`
	cmd := exec.CommandContext(ctx, askbridgeBin, "--", "sh", "-c", agent)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer in.Close()
	_, err = in.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n"))
	require.NoError(t, err)
	line, err := bufio.NewReader(out).ReadBytes('\n')
	require.NoError(t, err)
	var resp struct {
		ID    int
		Error struct {
			Code    int
			Message string
		}
	}
	require.NoError(t, json.Unmarshal(line, &resp), string(line))
	assert.Equal(t, 1, resp.ID)
	assert.Equal(t, -32603, resp.Error.Code)
	assert.Equal(t, "askbridge: the agent exited: exit status 3. Its last stderr lines:\nagent: loading config\nError: no API key (set ANTHROPIC_API_KEY)", resp.Error.Message)
	in.Close()
	err = cmd.Wait()
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "askbridge exits with the agent's code: %v", err)
	assert.Equal(t, 3, ee.ExitCode())
	assert.Contains(t, errOut.String(), "Error: no API key (set ANTHROPIC_API_KEY)\n", "the agent's stderr still reaches askbridge's")
}
