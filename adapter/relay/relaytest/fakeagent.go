package relaytest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Main is a TestMain that lets the test binary play a fake agent when
// re-executed with ASKBRIDGE_FAKE_AGENT set (FakeAgentCommand), so
// lifecycle tests run a real child process.
func Main(m *testing.M) {
	if mode := os.Getenv("ASKBRIDGE_FAKE_AGENT"); mode != "" {
		os.Exit(fakeAgent(mode))
	}
	os.Exit(m.Run())
}

// fakeAgent answers each request with {"echo":method}. The method "crash"
// makes it exit 3 without answering. Mode "stubborn" ignores SIGTERM and
// stdin EOF and leaves a grandchild behind (mode "sleep"); mode "stderr" writes a line to
// stderr first. Modes "stderr-tail" and "missing-key" only write to stderr
// and exit with a failure.
func fakeAgent(mode string) int {
	if mode == "sleep" {
		time.Sleep(5 * time.Minute)
		return 0
	}
	if mode == "stubborn" {
		signal.Ignore(syscall.SIGTERM)
		startGrandchild()
	}
	if mode == "stderr" {
		fmt.Fprintln(os.Stderr, "fake agent: hello on stderr")
	}
	if mode == "stderr-tail" {
		// Fourteen lines, a long one, blank ones, and a failure.
		for i := 1; i <= 14; i++ {
			fmt.Fprintf(os.Stderr, "line %d\n", i)
		}
		fmt.Fprintln(os.Stderr, strings.Repeat("x", 1000)) // longer than the tail keeps of a line
		fmt.Fprint(os.Stderr, "\n  \n")
		return 4
	}
	if mode == "missing-key" {
		// An agent that dies on its first message, saying why.
		fmt.Fprintln(os.Stderr, "starting")
		bufio.NewReader(os.Stdin).ReadString('\n')
		fmt.Fprintln(os.Stderr, "Error: ANTHROPIC_API_KEY is not set")
		return 2
	}
	var log *os.File
	if path := os.Getenv("ASKBRIDGE_FAKE_LOG"); path != "" {
		log, _ = os.Create(path)
		defer log.Close()
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<30)
	for sc.Scan() {
		if log != nil {
			fmt.Fprintln(log, sc.Text())
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.ID == nil {
			continue
		}
		if msg.Method == "crash" {
			os.Exit(3)
		}
		if msg.Method == "ask-now" {
			// Ask the user through askbridge, as an agent with only the
			// extension method would.
			fmt.Println(`{"jsonrpc":"2.0","id":"q1","method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which?","header":"Pick","options":[{"label":"A"},{"label":"B"}]}]}}`)
		}
		if msg.Method == "ask-many" {
			for i := range 200 {
				fmt.Printf(`{"jsonrpc":"2.0","id":"q%d","method":"_askbridge/ask","params":{"sessionId":"s1","questions":[{"question":"Which %d?","header":"Pick","options":[{"label":"A"},{"label":"B"}]}]}}`+"\n", i, i)
			}
		}
		fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"echo":%q}}`+"\n", msg.ID, msg.Method)
	}
	if mode == "stubborn" {
		time.Sleep(time.Hour)
	}
	return 0
}

// startGrandchild leaves a helper behind, as node leaves a native binary:
// this binary again, sleeping. Its pid goes to ASKBRIDGE_FAKE_PIDFILE when
// that is set.
func startGrandchild() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	c := exec.Command(exe, "-test.run=^$")
	c.Env = append(os.Environ(), "ASKBRIDGE_FAKE_AGENT=sleep")
	if c.Start() != nil {
		return
	}
	if path := os.Getenv("ASKBRIDGE_FAKE_PIDFILE"); path != "" {
		os.WriteFile(path, []byte(fmt.Sprintf("%d %d", os.Getpid(), c.Process.Pid)), 0o600)
	}
}

// FakeAgentCommand is the command line and environment that run the test
// binary as the agent, in mode (see fakeAgent); the binary's TestMain must
// be Main.
func FakeAgentCommand(t *testing.T, mode string) ([]string, []string) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Without atexit_sleep_ms=0 a race-enabled child lingers a second on exit.
	return []string{exe, "-test.run=^$"}, []string{"ASKBRIDGE_FAKE_AGENT=" + mode, "GORACE=atexit_sleep_ms=0"}
}
