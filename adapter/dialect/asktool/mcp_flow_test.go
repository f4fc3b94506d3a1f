package asktool_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
)

// injectHarness is a bridge with every dialect, MCPAsk set up as askbridge
// sets it up, and the log kept.
type injectHarness struct {
	*adaptertest.Harness
	log *relaytest.Buffer
}

const (
	testExe    = "/opt/askbridge/bin/askbridge"
	testSocket = "/tmp/askbridge-1/ask.sock"
)

func newInjectHarness(t *testing.T, mode asktool.Inject, argv ...string) *injectHarness {
	log := &relaytest.Buffer{}
	dialects := adapter.DialectsWith(adapter.DialectConfig{AskTool: asktool.Config{Inject: mode, Command: testExe, Socket: testSocket, Argv: argv}})
	h := adaptertest.New(t, adapter.Options{Dialects: dialects, Logger: slog.New(slog.NewTextHandler(log, nil))})
	return &injectHarness{Harness: h, log: log}
}

// initialize runs initialize with the agent answering result.
func (h *injectHarness) initialize(t *testing.T, result string) {
	t.Helper()
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":0,"result":` + result + `}`)
	h.Client.Recv()
}

const geminiInit = `{"protocolVersion":1,"agentInfo":{"name":"gemini-cli","title":"Gemini CLI","version":"0.61.0"},"agentCapabilities":{"loadSession":true}}`

// start sends a session-creating request and returns what the agent got;
// the agent answers with session (or an error when session is "").
func (h *injectHarness) start(t *testing.T, id, method, params, session string) string {
	t.Helper()
	h.Client.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":%q,"params":%s}`, id, method, params))
	got := h.Agent.Recv()
	if session == "" {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"error":{"code":-32603,"message":"no"}}`, id))
	} else {
		h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"sessionId":%q}}`, id, session))
	}
	h.Client.Recv()
	return got
}

// listed returns the servers of a forwarded request and the tag of
// askbridge's, "" when it is not listed.
func listed(t *testing.T, line string) (servers []map[string]any, tag string) {
	t.Helper()
	var m struct {
		Params struct {
			MCPServers []map[string]any `json:"mcpServers"`
		} `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &m), line)
	for _, s := range m.Params.MCPServers {
		if name, _ := s["name"].(string); !strings.HasPrefix(name, asktool.MCPServerPrefix) {
			continue
		}
		for _, e := range s["env"].([]any) {
			if e.(map[string]any)["name"] == askwire.TagEnv {
				tag = e.(map[string]any)["value"].(string)
			}
		}
	}
	return m.Params.MCPServers, tag
}

// askTagged has the MCP server ask one question with tag and returns the
// session the client is asked in.
func (h *injectHarness) askTagged(t *testing.T, id int, tag string) string {
	t.Helper()
	h.Agent.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"_askbridge/ask","params":{"questions":[{"question":"Which?","header":"H","options":[{"label":"A"},{"label":"B"}]}],"mcpTag":%q,"format":"result"}}`, id, tag))
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, adaptertest.Pick("B"))
	var res permission.Result
	require.NoError(t, json.Unmarshal(h.AgentReply(t, fmt.Sprint(id)).Result, &res))
	require.Len(t, res.Answers, 1)
	assert.Equal(t, []string{"B"}, res.Answers[0].Answer.Labels)
	var p struct {
		SessionID string `json:"sessionId"`
	}
	require.NoError(t, json.Unmarshal(req.Params, &p))
	return p.SessionID
}

func TestMCPAskListsItsServerAfterTheClientsOnes(t *testing.T) {
	h := newInjectHarness(t, asktool.InjectAuto, "gemini", "--acp")
	h.initialize(t, geminiInit)
	client := `{"name":"fs","command":"/bin/fs-mcp","args":["--ro"],"env":[],"_meta":{"x":[1,2]}}`
	got := h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[`+client+`],"_meta":{"keep":true}}`, "s1")

	servers, tag := listed(t, got)
	require.Len(t, servers, 2)
	b, _ := json.Marshal(servers[0])
	assert.JSONEq(t, client, string(b), "the client's server as it came")
	assert.Regexp(t, `^askbridge-[0-9a-f]{16}$`, tag)
	name := servers[1]["name"].(string)
	assert.Regexp(t, `^askbridge-[g-z]{12}$`, name)
	assert.JSONEq(t, fmt.Sprintf(`{"name":%q,"command":%q,"args":["mcp"],"env":[{"name":"ASKBRIDGE_SOCKET","value":%q},{"name":"ASKBRIDGE_MCP_TAG","value":%q}]}`, name, testExe, testSocket, tag),
		string(dialect.MustJSON(servers[1])))
	var rest map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(got), &rest))
	assert.JSONEq(t, `"n1"`, string(rest["id"]))
	assert.Contains(t, string(rest["params"]), `"_meta":{"keep":true}`)
	assert.Contains(t, string(rest["params"]), `"cwd":"/w"`)

	assert.Equal(t, "s1", h.askTagged(t, 7, tag))
	assert.Contains(t, h.log.String(), "GEMINI_CLI_TRUST_WORKSPACE=true", "the trusted-folder note")
}

// Each session-creating request gets its own tag, and a question goes to
// its tag's session, not the most recent one.
func TestMCPAskTagsNameTheirSessions(t *testing.T) {
	h := newInjectHarness(t, asktool.InjectAuto, "gemini", "--acp")
	h.initialize(t, `{"protocolVersion":1,"agentInfo":{"name":"gemini-cli"},"agentCapabilities":{"sessionCapabilities":{"fork":{},"resume":{}}}}`)
	_, t1 := listed(t, h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s1"))
	_, t2 := listed(t, h.start(t, "n2", "session/new", `{"cwd":"/w"}`, "s2"))
	_, t3 := listed(t, h.start(t, "l1", "session/load", `{"sessionId":"old","cwd":"/w","mcpServers":[]}`, "old"))
	_, t4 := listed(t, h.start(t, "f1", "session/fork", `{"sessionId":"s1","cwd":"/w"}`, "forked"))
	_, t5 := listed(t, h.start(t, "r1", "session/resume", `{"sessionId":"s2","cwd":"/w"}`, "s2"))
	tags := map[string]bool{t1: true, t2: true, t3: true, t4: true, t5: true}
	assert.Len(t, tags, 5, "five distinct tags")
	assert.NotContains(t, tags, "")

	assert.Equal(t, "s1", h.askTagged(t, 1, t1))
	assert.Equal(t, "old", h.askTagged(t, 2, t3))
	assert.Equal(t, "forked", h.askTagged(t, 3, t4))
	assert.Equal(t, "s2", h.askTagged(t, 4, t5))
	assert.Equal(t, "s2", h.askTagged(t, 5, t2))
	assert.Equal(t, 1, strings.Count(h.log.String(), "GEMINI_CLI_TRUST_WORKSPACE"), "the note is said once")
}

// A session that failed to start leaves its tag unknown: the question goes
// where an untagged one would.
func TestMCPAskForgetsTheTagOfAFailedSession(t *testing.T) {
	h := newInjectHarness(t, asktool.InjectAuto, "vibe-acp")
	h.initialize(t, `{"protocolVersion":1}`)
	_, bad := listed(t, h.start(t, "n1", "session/new", `{"cwd":"/w","mcpServers":[]}`, ""))
	require.NotEmpty(t, bad)
	h.start(t, "n2", "session/new", `{"cwd":"/w","mcpServers":[]}`, "s2")
	assert.Equal(t, "s2", h.askTagged(t, 1, bad))
	assert.Contains(t, h.log.String(), "no session has this MCP tag")
	assert.NotContains(t, h.log.String(), "GEMINI_CLI_TRUST_WORKSPACE", "not Gemini")
}

// Requests that get no server pass byte for byte.
func TestMCPAskLeavesAlone(t *testing.T) {
	newSession := `{"jsonrpc":"2.0","id":"n1","method":"session/new","params":{"cwd":"/w", "mcpServers":[]}}`
	for _, c := range []struct {
		name   string
		mode   asktool.Inject
		argv   []string
		init   string
		line   string
		inject bool
	}{
		{"Claude by agentInfo", asktool.InjectAuto, []string{"my-wrapper"}, `{"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp"}}`, newSession, false},
		{"Claude by the package npx runs", asktool.InjectAuto, []string{"npx", "-y", "@agentclientprotocol/claude-agent-acp"}, `{}`, newSession, false},
		{"Qwen", asktool.InjectAuto, []string{"qwen", "--acp"}, `{"agentInfo":{"name":"qwen-code"}}`, newSession, false},
		{"OpenCode", asktool.InjectAuto, []string{"/usr/bin/opencode", "acp"}, `{}`, newSession, false},
		{"Codex", asktool.InjectAuto, []string{"node", "/x/codex-acp/dist/index.js"}, `{}`, newSession, false},
		{"Cursor", asktool.InjectAuto, []string{"cursor-agent", "acp"}, `{}`, newSession, false},
		{"Kimi Code by agentInfo", asktool.InjectAuto, []string{"node", "/x/node_modules/@moonshot-ai/kimi-code/dist/main.mjs", "acp"}, `{"agentInfo":{"name":"Kimi Code CLI","version":"2.1.0"}}`, newSession, false},
		{"Kimi Code by its command", asktool.InjectAuto, []string{"kimi", "acp"}, `{}`, newSession, false},
		{"never, even for Gemini", asktool.InjectNever, []string{"gemini", "--acp"}, geminiInit, newSession, false},
		{"a fork the agent did not advertise", asktool.InjectAuto, []string{"gemini"}, geminiInit,
			`{"jsonrpc":"2.0","id":"n1","method":"session/fork","params":{"sessionId":"s","cwd":"/w"}}`, false},
		{"a client that lists a server named askbridge", asktool.InjectAlways, []string{"gemini"}, geminiInit,
			`{"jsonrpc":"2.0","id":"n1","method":"session/new","params":{"cwd":"/w","mcpServers":[{"name":"askbridge","command":"x","args":[],"env":[]}]}}`, true},
		{"a model flag naming Claude", asktool.InjectAuto, []string{"kiro-cli", "acp", "--model", "claude-sonnet-4"}, `{"agentInfo":{"name":"kiro"}}`, newSession, true},
		{"always, even for Claude", asktool.InjectAlways, []string{"claude-agent-acp"}, `{"agentInfo":{"name":"claude-agent-acp"}}`, newSession, true},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			h := newInjectHarness(t, c.mode, c.argv...)
			h.initialize(t, c.init)
			h.Client.Send(c.line)
			got := h.Agent.Recv()
			if c.inject {
				_, tag := listed(t, got)
				assert.NotEmpty(t, tag)
				return
			}
			assert.Equal(t, c.line, got)
		})
	}
}

func TestInjectFlagValues(t *testing.T) {
	for _, s := range []string{"auto", "always", "never"} {
		var i asktool.Inject
		require.NoError(t, i.Set(s))
		assert.Equal(t, s, i.String())
	}
	var i asktool.Inject
	assert.ErrorContains(t, i.Set("sometimes"), `"sometimes": want auto, always or never`)
}
