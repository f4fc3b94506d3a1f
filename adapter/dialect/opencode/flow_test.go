package opencode_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/opencode"
	"github.com/askbridge/askbridge/adapter/dialect/opencode/opencodetest"
	"github.com/askbridge/askbridge/permission"
)

func TestOpenCodeQuestionIsAnsweredOnItsServer(t *testing.T) {
	oc := opencodetest.New(t, "pw")
	h := adaptertest.New(t, adapter.Options{Advertise: true, Dialects: withOpenCode(&opencode.Server{BaseURL: oc.URL, Password: "pw"})})
	h.OpenSession(t, "s1")
	oc.Ask("call_1")
	h.Agent.Send(opencodetest.Question)
	assert.Equal(t, opencodetest.Question, h.Client.Recv(), "the tool call itself passes through untouched")
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"toolCallId":"call_1"`)
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"MariaDB"}}}`)
	req, _ = h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), "A header longer than twelve (2/2)", "a bridged agent's long header is shown, not rejected")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"C","_meta":{"selectedOptionIds":["C","Go"]}}}`)
	assert.Equal(t, `que_1 reply {"answers":[["MariaDB"],["Go","C"]]}`, oc.Post(t))
}

func TestOpenCodeCancelRejectsTheQuestion(t *testing.T) {
	oc := opencodetest.New(t, "pw")
	h := adaptertest.New(t, adapter.Options{Advertise: true, Dialects: withOpenCode(&opencode.Server{BaseURL: oc.URL, Password: "pw"})})
	h.OpenSession(t, "s1")
	oc.Ask("call_1")
	h.Agent.Send(opencodetest.Question)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Client.Send(`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	assert.Equal(t, "que_1 reject ", oc.Post(t))
	for {
		m := adaptertest.Decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.Contains(t, string(m.Params), string(req.ID), "no permission request stays open")
			break
		}
	}
}

func TestOpenCodeUnreachableServerCancelsTheTurnWithAMessage(t *testing.T) {
	oc := opencodetest.New(t, "wrong password")
	h := adaptertest.New(t, adapter.Options{Advertise: true, Dialects: withOpenCode(&opencode.Server{BaseURL: oc.URL, Password: "pw", FindTimeout: 300 * time.Millisecond})})
	h.OpenSession(t, "s1")
	h.Agent.Send(opencodetest.Question)
	h.Client.Recv()
	m := adaptertest.Decode(t, h.Client.Recv())
	assert.Contains(t, string(m.Params), `"status":"failed"`)
	assert.Contains(t, string(m.Params), "401 Unauthorized")
	for {
		a := adaptertest.Decode(t, h.Agent.Recv())
		if a.Method == "session/cancel" {
			assert.JSONEq(t, `{"sessionId":"s1"}`, string(a.Params))
			break
		}
	}
}

// Launch "auto" finds OpenCode in the table by its command and lets it
// start its server (the launch itself is tested in launch_test.go).
func TestLaunchAutoFindsOpenCode(t *testing.T) {
	dialects := adapter.Dialects()
	cmd, env, err := adapter.Launch(dialects, []string{"opencode", "acp"}, "auto")
	require.NoError(t, err)
	var srv *opencode.Server
	for _, d := range dialects {
		if oc, ok := d.(*opencode.Dialect); ok {
			srv = oc.Server
		}
	}
	require.NotNil(t, srv, "Launch started the OpenCode dialect's server")
	assert.Contains(t, cmd, "--port")
	assert.Contains(t, env, "OPENCODE_SERVER_PASSWORD="+srv.Password)
}

// withOpenCode is the dialect table with OpenCode's server set, as Launch
// would set it.
func withOpenCode(srv *opencode.Server) []dialect.Dialect {
	d := adapter.Dialects()
	for _, x := range d {
		if oc, ok := x.(*opencode.Dialect); ok {
			oc.Server = srv
		}
	}
	return d
}

func TestLaunchGenericLeavesTheCommand(t *testing.T) {
	cmd, env, err := adapter.Launch(adapter.Dialects(), []string{"opencode", "acp"}, "generic")
	require.NoError(t, err)
	assert.Equal(t, []string{"opencode", "acp"}, cmd)
	assert.Empty(t, env)
	cmd, _, err = adapter.Launch(adapter.Dialects(), []string{"my-wrapper"}, "opencode")
	require.NoError(t, err)
	assert.Contains(t, cmd, "--port", "--agent-kind opencode launches a command it does not recognise as OpenCode")
}

// A timeout is posted as answers in words, where a reject would tell
// OpenCode's model the user dismissed the question.
func TestOpenCodeTimeoutRepliesInWords(t *testing.T) {
	oc := opencodetest.New(t, "pw")
	h := adaptertest.New(t, adapter.Options{Advertise: true, QuestionTimeout: 150 * time.Millisecond, Dialects: withOpenCode(&opencode.Server{BaseURL: oc.URL, Password: "pw"})})
	h.OpenSession(t, "s1")
	oc.Ask("call_1")
	h.Agent.Send(opencodetest.Question)
	h.NextRequest(t, "session/request_permission")
	want, _ := json.Marshal(map[string][][]string{"answers": {{permission.NoAnswerInTime}, {permission.NoAnswerInTime}}})
	assert.Equal(t, "que_1 reply "+string(want), oc.Post(t))
}

// A tool call that names its tool (ACP's name member) is recognised by
// that name, whatever its display title: OpenCode's question tool titled
// for the user is still the question tool (before, only the title
// "question" was read, and this one went unanswered).
func TestQuestionToolRecognisedByName(t *testing.T) {
	oc := opencodetest.New(t, "pw")
	h := adaptertest.New(t, adapter.Options{Advertise: true, Dialects: withOpenCode(&opencode.Server{BaseURL: oc.URL, Password: "pw"})})
	h.OpenSession(t, "s1")
	oc.Ask("call_1")
	named := strings.Replace(opencodetest.Question, `"title":"question"`, `"name":"question","title":"Asking you about the database"`, 1)
	h.Agent.Send(named)
	assert.Equal(t, named, h.Client.Recv())
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"toolCallId":"call_1"`)
}
