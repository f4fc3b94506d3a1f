package claude_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect/claude/claudetest"
	"github.com/askbridge/askbridge/permission"
)

// The form elicitation (Claude Code's, and any plain form) through the bridge.

const claudeSingle = claudetest.Single

func TestElicitationPassesThroughToAClientThatRendersForms(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{"x":1}}}}}`)
	got := adaptertest.Decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{"x":1},"url":{}},"_meta":{"qwen.askUserQuestion":true,"kiro":{"userInput":true}}}}`, string(got.Params))
	assert.True(t, h.Bridge.ClientRendersForms())
	h.Agent.Send(claudeSingle)
	assert.Equal(t, claudeSingle, h.Client.Recv())
}

func TestElicitationBecomesPermissionRequests(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	h.Agent.Recv()
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, notes := h.NextRequest(t, "session/request_permission")
	require.NotEmpty(t, notes, "the question is shown as a tool call first")
	assert.Contains(t, string(notes[0].Params), "Which database?")
	var p struct {
		SessionID string `json:"sessionId"`
		ToolCall  struct {
			ToolCallID string `json:"toolCallId"`
			Kind       string `json:"kind"`
			Title      string `json:"title"`
		} `json:"toolCall"`
		Options []struct {
			OptionID string `json:"optionId"`
			Name     string `json:"name"`
			Kind     string `json:"kind"`
		} `json:"options"`
	}
	require.NoError(t, json.Unmarshal(req.Params, &p))
	assert.Equal(t, "s1", p.SessionID)
	assert.Equal(t, "toolu_1", p.ToolCall.ToolCallID)
	assert.Equal(t, "think", p.ToolCall.Kind)
	assert.Equal(t, "Database", p.ToolCall.Title)
	require.Len(t, p.Options, 3)
	assert.Equal(t, "Postgres", p.Options[0].OptionID)
	assert.Equal(t, "Postgres - relational", p.Options[0].Name)
	assert.Equal(t, "__other__", p.Options[2].OptionID)
	h.Answer(t, req, adaptertest.Pick("Postgres"))
	reply := h.AgentReply(t, "41")
	assert.JSONEq(t, `{"action":"accept","content":{"question_0":"Postgres"}}`, string(reply.Result))
}

func TestElicitationOtherWithTextFillsTheCompanionField(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"MariaDB"}}}`)
	reply := h.AgentReply(t, "41")
	assert.JSONEq(t, `{"action":"accept","content":{"question_0_custom":"MariaDB"}}`, string(reply.Result))
}

func TestElicitationCancelledOutcomeCancels(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "41").Result))
}

func TestElicitationMultiSelectAndBooleanFieldsAreTypedPerSchema(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":"e2","method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Setup","requestedSchema":{"type":"object","properties":{"langs":{"type":"array","title":"Languages","description":"Which languages?","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"rs","title":"Rust"},{"const":"py","title":"Python"}]}},"tests":{"type":"boolean","title":"Tests","description":"Write tests?"},"level":{"type":"integer","title":"Level","description":"How strict?"}},"required":["tests"]}}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","Python"]}}}`)
	req, _ = h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"optionId":"Yes"`)
	h.Answer(t, req, adaptertest.Pick("No"))
	req, _ = h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":" 3 "}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"langs":["go","py"],"tests":false,"level":3}}`, string(h.AgentReply(t, `"e2"`).Result))
}

func TestElicitationDeclinesWhenARequiredFieldCannotBeFilled(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":9,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string","title":"Name"}},"required":["name"]}}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	// A client without customText support can only pick Other without text.
	h.Answer(t, req, adaptertest.Pick("__other__"))
	assert.JSONEq(t, `{"action":"decline"}`, string(h.AgentReply(t, "9").Result))
}

// A timeout is not a cancel: Claude reads a decline as "the user did not
// answer" and goes on, where a cancel would abort its tool call.
func TestQuestionTimeoutDeclinesTheForm(t *testing.T) {
	board := permission.NewBoard()
	h := adaptertest.New(t, adapter.Options{Advertise: true, QuestionTimeout: 100 * time.Millisecond, OnTimeout: adapter.TimeoutEnd, Board: board})
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.JSONEq(t, `{"action":"decline"}`, string(h.AgentReply(t, "41").Result))
	for {
		m := adaptertest.Decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.Contains(t, string(m.Params), string(req.ID))
			break
		}
	}
	hist, _ := board.History("s1")
	require.Len(t, hist, 1)
	assert.Equal(t, permission.StateTimeout, hist[0].State)
}

func TestElicitationEnumFieldsWithNames(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(`{"jsonrpc":"2.0","id":3,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Pick a size","requestedSchema":{"type":"object","properties":{"size":{"type":"string","title":"Size","enum":["s","m","l"],"enumNames":["Small","Medium","Large"]}},"required":["size"]}}}`)
	req, _ := h.NextRequest(t, "session/request_permission")
	assert.Contains(t, string(req.Params), `"optionId":"Medium"`)
	assert.Contains(t, string(req.Params), `Pick a size`)
	h.Answer(t, req, adaptertest.Pick("Medium"))
	assert.JSONEq(t, `{"action":"accept","content":{"size":"m"}}`, string(h.AgentReply(t, "3").Result))
}

func TestFormTrueIsNotAFormCapability(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientCapabilities":{"elicitation":{"form":true,"url":{}}}}}`)
	got := adaptertest.Decode(t, h.Agent.Recv())
	assert.JSONEq(t, `{"clientCapabilities":{"elicitation":{"form":{},"url":{}},"_meta":{"qwen.askUserQuestion":true,"kiro":{"userInput":true}}}}`, string(got.Params))
	assert.False(t, h.Bridge.ClientRendersForms(), "Claude offers its question tool only for an object; askbridge renders the questions")
}
