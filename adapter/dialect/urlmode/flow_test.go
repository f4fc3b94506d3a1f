package urlmode_test

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect/urlmode"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
)

// codex-acp 2.6.0's URL elicitations, as its source builds them: the
// device-code sign-in during authenticate (request 2), tied to that request
// (createUrlElicitationRequester), and an MCP server's OAuth in a session
// (signInWithUrlElicitation).
const (
	codexSignIn = `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"mode":"url","requestId":2,"url":"https://auth.openai.com/codex/device","message":"Sign in to ChatGPT and enter this code: ABCD-12345","elicitationId":"login-1"}}`
	codexMCP    = `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"mode":"url","sessionId":"s1","message":"Authenticate with MCP server linear","url":"https://mcp.linear.app/authorize?client_id=x&state=y","elicitationId":"mcp-oauth-1"}}`
	codexDone   = `{"jsonrpc":"2.0","method":"elicitation/complete","params":{"elicitationId":"%s"}}`
)

// urlClient starts a bridge whose client says caps in initialize, with
// session s1 open.
func urlClient(t *testing.T, caps string, opts adapter.Options) (*adaptertest.Harness, *permission.Board) {
	t.Helper()
	opts.Advertise = true
	opts.Board = permission.NewBoard()
	h := adaptertest.New(t, opts)
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":` + caps + `}}`)
	h.Agent.Recv()
	h.Agent.Send(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}`)
	h.Client.Recv()
	h.OpenSession(t, "s1")
	return h, opts.Board
}

func TestURLModeIsAdvertisedUnlessTheClientHasIt(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"url":{"v":1}}}}}`)
	got := adaptertest.Decode(t, h.Agent.Recv())
	assert.Contains(t, string(got.Params), `"url":{"v":1}`, "the client's own capability stays as it is")
	assert.True(t, h.Bridge.ClientRendersURLs())

	h2 := adaptertest.New(t, adapter.Options{Advertise: true})
	h2.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"url":true}}}}`)
	got = adaptertest.Decode(t, h2.Agent.Recv())
	assert.Contains(t, string(got.Params), `"url":{}`, "only an object advertises a mode")
	assert.False(t, h2.Bridge.ClientRendersURLs())
}

// The MCP sign-in in a session becomes a permission request: the message as
// its title, the address and its host in its content, two buttons and no
// Other; each answer is the agent's action.
func TestURLElicitationBecomesAPermissionRequest(t *testing.T) {
	for _, c := range []struct{ name, answer, want string }{
		{"opened", adaptertest.Pick(urlmode.Opened), `{"action":"accept"}`},
		{"cancel button", adaptertest.Pick(urlmode.Cancel), `{"action":"decline"}`},
		{"dismissed", `{"outcome":{"outcome":"cancelled"}}`, `{"action":"cancel"}`},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			h, board := urlClient(t, `{}`, adapter.Options{})
			h.Agent.Send(codexMCP)
			req, _ := h.NextRequest(t, "session/request_permission")
			var p struct {
				SessionID string `json:"sessionId"`
				ToolCall  struct {
					Title   string `json:"title"`
					Content []struct {
						Content struct{ Text string } `json:"content"`
					} `json:"content"`
				} `json:"toolCall"`
			}
			require.NoError(t, json.Unmarshal(req.Params, &p))
			_, ids := adaptertest.ReadPermission(t, req)
			assert.Equal(t, "s1", p.SessionID)
			assert.Equal(t, "Authenticate with MCP server linear", p.ToolCall.Title, "the message in full")
			require.Len(t, p.ToolCall.Content, 1)
			text := p.ToolCall.Content[0].Content.Text
			assert.Contains(t, text, "\nhttps://mcp.linear.app/authorize?client_id=x&state=y\n", "the full address on a line of its own")
			assert.Contains(t, text, "Host: mcp.linear.app")
			assert.Equal(t, []string{urlmode.Opened, urlmode.Cancel}, ids, "no Other: nothing typed can answer it")

			pending := adaptertest.OnBoard(t, board)
			assert.Equal(t, "https://mcp.linear.app/authorize?client_id=x&state=y", pending.Questions[0].Link, "the desk shows it as a link")

			h.Answer(t, req, c.answer)
			reply := h.AgentReply(t, "0")
			assert.JSONEq(t, c.want, string(reply.Result))
		})
	}
}

// elicitation/complete withdraws the question from the editor and the
// board; the editor, which knows no URL mode, never gets the notification.
func TestElicitationCompleteWithdrawsIt(t *testing.T) {
	h, board := urlClient(t, `{}`, adapter.Options{})
	h.Agent.Send(codexMCP)
	req, _ := h.NextRequest(t, "session/request_permission")
	pending := adaptertest.OnBoard(t, board)
	h.Agent.Send(strings.Replace(codexDone, "%s", "mcp-oauth-1", 1))
	reply := h.AgentReply(t, "0")
	assert.JSONEq(t, `{"action":"cancel"}`, string(reply.Result))
	p := adaptertest.Settled(t, board, pending.ID)
	assert.Equal(t, permission.StateCancelled, p.State)
	assert.Contains(t, p.Result.Reason, "withdrew")
	lines := clientLines(h)
	assert.Contains(t, lines, `"method":"$/cancel_request","params":{"requestId":`+string(req.ID)+`}`, "the permission request is withdrawn")
	assert.NotContains(t, lines, "elicitation/complete")
}

// clientLines is what the client gets until it has been quiet a moment.
func clientLines(h *adaptertest.Harness) string {
	var b strings.Builder
	for {
		line, ok := h.Client.TryRecv(300 * time.Millisecond)
		if !ok {
			return b.String()
		}
		b.WriteString(line + "\n")
	}
}

// codex-acp withdraws the elicitation itself ($/cancel_request) when the
// sign-in completes before the user answers, then sends
// elicitation/complete: the agent gets one reply, and the late completion
// goes nowhere.
func TestSignInCompletedBeforeTheAnswer(t *testing.T) {
	h, board := urlClient(t, `{}`, adapter.Options{Attended: func() bool { return true }})
	h.Agent.Send(codexSignIn)
	pending := adaptertest.OnBoard(t, board)
	assert.Equal(t, urlmode.NoSession, pending.SessionID, "tied to authenticate, not to a session")
	assert.Equal(t, "Sign in to ChatGPT and enter this code: ABCD-12345", pending.Questions[0].Question)
	assert.Equal(t, "https://auth.openai.com/codex/device", pending.Questions[0].Link)
	h.Agent.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":0}}`)
	h.Agent.Send(strings.Replace(codexDone, "%s", "login-1", 1))
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "0").Result))
	adaptertest.Settled(t, board, pending.ID)
	lines := clientLines(h)
	assert.NotContains(t, lines, "elicitation", "the editor never saw the sign-in: nothing of it reaches it")
	assert.NotContains(t, lines, "request_permission", "a request-scoped elicitation is no permission request")
	h.NothingElseToAgent(t)
}

// A sign-in during authenticate goes to the board (the desk, the hub, the
// notifiers): answered there, the agent gets accept.
func TestRequestScopedSignInIsAnsweredAtTheDesk(t *testing.T) {
	h, board := urlClient(t, `{}`, adapter.Options{Attended: func() bool { return true }})
	h.Agent.Send(codexSignIn)
	pending := adaptertest.OnBoard(t, board)
	q := pending.Questions[0]
	require.NoError(t, board.Settle(pending.ID, permission.Result{Source: permission.SourceDesk,
		Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{urlmode.Opened}}, Path: "questions[0]"}}}, permission.ByEditor()))
	assert.JSONEq(t, `{"action":"accept"}`, string(h.AgentReply(t, "0").Result))
	// codex-acp completes an accepted sign-in once it is over.
	h.Agent.Send(strings.Replace(codexDone, "%s", "login-1", 1))
	assert.NotContains(t, clientLines(h), "elicitation")
}

// With nothing but the editor there, a sign-in outside a session has
// nowhere to go: declined at once, with a log line saying why.
func TestRequestScopedSignInWithNobodyThereIsDeclined(t *testing.T) {
	var log relaytest.Buffer
	h, board := urlClient(t, `{}`, adapter.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	h.Agent.Send(codexSignIn)
	assert.JSONEq(t, `{"action":"decline"}`, string(h.AgentReply(t, "0").Result))
	assert.Empty(t, board.List())
	assert.Contains(t, log.String(), "declined a sign-in page outside a session")
	assert.Contains(t, log.String(), "host=auth.openai.com")
	assert.NotContains(t, log.String(), "/codex/device", "the host only: an address may carry a state or a code")
}

// A client with URL mode gets the elicitation and its completion byte for
// byte; the set is on the board meanwhile, and the editor's answer wins.
func TestURLElicitationPassesThroughToAClientWithURLMode(t *testing.T) {
	for _, msg := range []string{codexMCP, codexSignIn} {
		h, board := urlClient(t, `{"elicitation":{"url":{}}}`, adapter.Options{})
		h.Agent.Send(msg)
		req := h.Client.Recv()
		assert.Equal(t, msg, req)
		pending := adaptertest.OnBoard(t, board)
		h.Client.Send(`{"jsonrpc":"2.0","id":0,"result":{"action":"accept"}}`)
		assert.Equal(t, `{"jsonrpc":"2.0","id":0,"result":{"action":"accept"}}`, h.Agent.Recv())
		p := adaptertest.Settled(t, board, pending.ID)
		assert.Equal(t, permission.SourceClient, p.Result.Source)
		assert.Equal(t, []string{urlmode.Opened}, p.Result.Answers[0].Answer.Labels)
		done := strings.Replace(codexDone, "%s", "x", 1)
		h.Agent.Send(done)
		assert.Equal(t, done, h.Client.Recv())
	}
}

// Never a form, nothing but an http or https address, and a timeout never
// says the user opened it.
func TestURLElicitationEdges(t *testing.T) {
	h, _ := urlClient(t, `{"elicitation":{"form":{}}}`, adapter.Options{})
	bad := strings.Replace(codexMCP, "https://mcp.linear.app/authorize?client_id=x&state=y", "javascript:alert(1)", 1)
	h.Agent.Send(bad)
	reply := h.AgentReply(t, "0")
	require.NotNil(t, reply.Error)
	assert.Contains(t, reply.Error.Message, "want an absolute http or https address")
	assert.NotContains(t, clientLines(h), "elicitation/create", "a client with forms gets no URL as a form")

	h2, board := urlClient(t, `{}`, adapter.Options{QuestionTimeout: 300 * time.Millisecond, OnTimeout: adapter.TimeoutRecommended})
	h2.Agent.Send(codexMCP)
	pending := adaptertest.OnBoard(t, board)
	assert.JSONEq(t, `{"action":"decline"}`, string(h2.AgentReply(t, "0").Result))
	adaptertest.Settled(t, board, pending.ID)
}

// A yes/no client (acpx shows a request's title alone) has the address in
// the title too; yes to "I opened it" is accept.
func TestURLElicitationToAYesNoClient(t *testing.T) {
	h, _ := urlClient(t, `{}`, adapter.Options{Render: adapter.RenderYesNo})
	h.Agent.Send(codexMCP)
	req, _ := h.NextRequest(t, "session/request_permission")
	p, ids := adaptertest.ReadPermission(t, req)
	assert.Equal(t, "Authenticate with MCP server linear (https://mcp.linear.app/authorize?client_id=x&state=y) — I opened it", p.ToolCall.Title)
	assert.Contains(t, string(req.Params), `Host: mcp.linear.app`)
	assert.Equal(t, []string{permission.YesID, permission.NoID}, ids)
	h.Answer(t, req, adaptertest.Pick(permission.YesID))
	assert.JSONEq(t, `{"action":"accept"}`, string(h.AgentReply(t, "0").Result))
}
