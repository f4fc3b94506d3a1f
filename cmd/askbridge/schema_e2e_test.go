package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/askbridge/askbridge/internal/acpschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every line the fake client receives that askbridge wrote itself is
// checked against the official ACP schema by method (internal/acpschema):
// its own requests, notifications and replies. Lines relayed from the
// scripted agent are the agent's words, not askbridge's (and relay tests
// may send odd ones on purpose), so they are told apart the way the
// conformance fixtures do it: the scripted agents copy every line they
// write to a file (agentLogEnv), and a received line equal to one of
// them is relayed. Everything else on askbridge's stdout is askbridge's.

// agentLogEnv names the file a scripted agent copies its stdout to.
const agentLogEnv = "ASKBRIDGE_E2E_AGENT_LOG"

// agentOut is the scripted agents' stdout, copied to agentLogEnv's file
// when set.
func agentOut() io.Writer {
	path := os.Getenv(agentLogEnv)
	if path == "" {
		return os.Stdout
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintf(os.Stderr, "scripted agent: %v\n", err)
		return os.Stdout
	}
	return io.MultiWriter(os.Stdout, f)
}

// schemaWatch collects what one fake client sent and received.
type schemaWatch struct {
	agentLog string
	mu       sync.Mutex
	received [][]byte
	requests map[string]string // the client's requests: id -> method
}

func newSchemaWatch(agentLog string) *schemaWatch {
	return &schemaWatch{agentLog: agentLog, requests: map[string]string{}}
}

func (w *schemaWatch) sent(line []byte) {
	if id, method, ok := acpschema.Request(line); ok {
		w.mu.Lock()
		w.requests[id] = method
		w.mu.Unlock()
	}
}

func (w *schemaWatch) got(line []byte) {
	w.mu.Lock()
	w.received = append(w.received, bytes.Clone(line))
	w.mu.Unlock()
}

// tally counts what was checked.
type tally struct {
	sync.Mutex
	checked, relayed int
	defs, unknown    map[string]int
}

func newTally() *tally { return &tally{defs: map[string]int{}, unknown: map[string]int{}} }

// schemaTally is what the whole run checked, for TestMain to print.
var schemaTally = newTally()

// verify checks askbridge's own lines once askbridge has exited, and
// returns what is wrong with them.
func (w *schemaWatch) verify(schemaTally *tally) []string {
	s, err := acpschema.ACP()
	if err != nil {
		return []string{err.Error()}
	}
	agent, _ := os.ReadFile(w.agentLog) // none: the agent wrote nothing
	relayed := map[string]bool{}
	for _, l := range bytes.Split(agent, []byte("\n")) {
		relayed[compactLine(l)] = true
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	var problems []string
	schemaTally.Lock()
	defer schemaTally.Unlock()
	for _, line := range w.received {
		if relayed[compactLine(line)] {
			schemaTally.relayed++
			continue
		}
		c := s.Check(line, w.requests)
		if err := c.Problem(); err != nil {
			problems = append(problems, fmt.Sprintf("%s (%s): %v\n  %s", c.What, c.Def, err, line))
			continue
		}
		if c.Def == "" {
			schemaTally.unknown[c.What]++
			continue
		}
		schemaTally.checked++
		schemaTally.defs[c.Def]++
	}
	return problems
}

func compactLine(l []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, bytes.TrimSpace(l)) != nil {
		return string(bytes.TrimSpace(l))
	}
	return b.String()
}

// watchSchema wires a watch into the fake client: it fails t at cleanup
// (run after askbridge has exited) for every invalid line askbridge wrote.
func watchSchema(t *testing.T, w *schemaWatch) {
	for _, p := range w.verify(schemaTally) {
		t.Errorf("askbridge wrote a message the ACP schema rejects: %s", p)
	}
}

// summary is the tally in a line.
func (schemaTally *tally) summary() string {
	schemaTally.Lock()
	defer schemaTally.Unlock()
	var defs []string
	for _, d := range slices.Sorted(maps.Keys(schemaTally.defs)) {
		defs = append(defs, fmt.Sprintf("%s:%d", d, schemaTally.defs[d]))
	}
	return fmt.Sprintf("ACP schema: %d messages askbridge wrote checked (%s); %d relayed agent lines skipped; not in the schema: %v",
		schemaTally.checked, strings.Join(defs, " "), schemaTally.relayed, schemaTally.unknown)
}

// The hook must fail a broken message askbridge wrote, and leave alone an
// odd line the agent wrote that askbridge relayed.
func TestSchemaWatchFailsBrokenMessagesOnly(t *testing.T) {
	t.Parallel()
	odd := `{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call_progress"}}}`
	w := newSchemaWatch(t.TempDir() + "/agent.jsonl")
	require.NoError(t, os.WriteFile(w.agentLog, []byte(odd+"\n"), 0o600))
	w.sent([]byte(`{"jsonrpc":"2.0","id":"c1","method":"session/prompt","params":{}}`))
	permission := `{"jsonrpc":"2.0","id":"askbridge-1","method":"session/request_permission","params":{"sessionId":"s1","options":[{"kind":"%s","name":"Go","optionId":"Go"}],"toolCall":{"toolCallId":"askbridge-2","title":"Language"}}}`
	for _, l := range []string{
		odd, // relayed: the agent's, not checked
		fmt.Sprintf(permission, "allow_once"),
		fmt.Sprintf(permission, "allow_sometimes"),                                                              // broken: kind not in the enum
		`{"jsonrpc":"2.0","id":"askbridge-1","method":"$/cancel_request","params":{"requestId":"askbridge-1"}}`, // a notification with an id
		`{"jsonrpc":"2.0","id":"c1","error":{"code":"internal","message":"agent exited"}}`,                      // broken: code not a number
		`{"jsonrpc":"2.0","id":"c2","result":{}}`,                                                               // answers no request
	} {
		w.got([]byte(l))
	}
	n := newTally()
	problems := w.verify(n)
	require.Len(t, problems, 4, "%q", problems)
	assert.Contains(t, problems[0], "kind")
	assert.Contains(t, problems[1], "$/cancel_request is a notification, sent as a request")
	assert.Contains(t, problems[2], "session/prompt error")
	assert.Contains(t, problems[3], "answers no request")
	assert.Equal(t, 1, n.checked)
	assert.Equal(t, 1, n.relayed)
}
