package adapter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/opencode"
	"github.com/askbridge/askbridge/permission"
)

// The dialects' lines and fakes that the bridge's own tests send. Each
// dialect's flow tests live beside it (adapter/dialect/<name>, on
// adapter/adaptertest) with their own copy: package adapter's tests cannot
// import adaptertest, which imports adapter.

// codexForm is elicitation/create as codex-acp 2.6.0 sends it for
// request_user_input (seen with the real agent), with id 0 as it numbers
// its first request, for the given properties and required fields.
func codexForm(autoResolution, props, required string) string {
	return `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"sessionId":"s1","toolCallId":"call_1","mode":"form","message":"Codex needs your input to continue.",` +
		`"requestedSchema":{"type":"object","properties":{` + props + `},"required":[` + required + `]},"_meta":{"codex":{"autoResolutionMs":` + autoResolution + `}}}}`
}

// codexQuestion is the choice field and note of one question.
func codexQuestion(id, note, header, question string, secret bool, labels ...string) string {
	var opts []string
	for _, l := range labels {
		opts = append(opts, fmt.Sprintf(`{"const":%q,"title":%q,"description":"about %s"}`, l, l, l))
	}
	opts = append(opts, `{"const":"None of the above","title":"None of the above","description":"Provide a different answer in the note field."}`)
	return fmt.Sprintf(`%q:{"title":%q,"description":%q,"_meta":{"codex":{"isOther":true,"isSecret":%v}},"type":"string","oneOf":[%s]},`+
		`%q:{"type":"string","title":"Additional answer or note","_meta":{"codex":{"questionId":%q,"role":"user_note","isSecret":%v}}}`,
		id, question, header, secret, strings.Join(opts, ","), note, id, secret)
}

var (
	codexDB   = codexForm("null", codexQuestion("db", "db_note", "Database", "Which database?", false, "Postgres", "Redis"), `"db"`)
	codexPass = codexForm("null", codexQuestion("token", "token_note", "Token", "Which token?", true, "Staging", "Production"), `"token"`)
)

// codexAsk starts a bridge, sends form, and returns the first permission
// request and the lines the client saw before it.
func codexAsk(t *testing.T, form string) (*bridgeHarness, rpc, []rpc) {
	t.Helper()
	h := newBridgeHarness(t, Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(form)
	req, notes := h.NextRequest(t, "session/request_permission")
	return h, req, notes
}

// withOpenCode is the dialect table with OpenCode's server set, as Launch
// would set it.
func withOpenCode(srv *opencode.Server) []dialect.Dialect {
	d := Dialects()
	for _, x := range d {
		if oc, ok := x.(*opencode.Dialect); ok {
			oc.Server = srv
		}
	}
	return d
}

// An agent's approval of a shell command: the request names only the tool
// call; what will run came in the tool_call notification before it.
const (
	bashCall     = `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"toolu_9","title":"Bash","kind":"execute","status":"pending","rawInput":{"command":"rm -rf build"}}}}`
	bashApproval = `{"jsonrpc":"2.0","id":"perm-1","method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"toolu_9","title":"rm -rf build"},"options":[{"optionId":"allow","name":"Allow once","kind":"allow_once"},{"optionId":"always","name":"Always allow","kind":"allow_always"},{"optionId":"reject","name":"Reject","kind":"reject_once"}]}}`
)

func approvalsBridge(t *testing.T, opts Options) (*bridgeHarness, *permission.Board) {
	t.Helper()
	opts.Board = permission.NewBoard()
	h := newBridgeHarness(t, opts)
	h.OpenSession(t, "s1")
	return h, opts.Board
}
