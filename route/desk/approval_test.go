package desk

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An approval is listed with kind "approval", the tool call and the agent's
// options; a reply picks an option by name, and typed text is refused.
func TestDeskListsAndAnswersAnApproval(t *testing.T) {
	s, board := newDesk(t, Options{})
	a := &permission.Approval{ToolCall: json.RawMessage(`{"toolCallId":"t1","kind":"execute","title":"rm -rf build","rawInput":{"command":"rm -rf build"}}`),
		Options: []permission.ApprovalOption{{OptionID: "allow", Name: "Allow once", Kind: "allow_once"}, {OptionID: "reject", Name: "Reject", Kind: "reject_once"}}}
	q := permission.Question{Header: "Approval: execute", Question: "rm -rf build", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow once"}, {Label: "Reject"}}}
	tk := board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Questions: []permission.Question{q}, Approval: a})
	board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})

	code, body := do(t, s, http.MethodGet, "/question", "", nil)
	require.Equal(t, http.StatusOK, code)
	var list []struct {
		ID        string `json:"id"`
		Kind      string `json:"kind"`
		Approval  *permission.Approval
		Questions []struct {
			Custom *bool `json:"custom"`
		} `json:"questions"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.Len(t, list, 2)
	assert.Equal(t, "approval", list[0].Kind)
	assert.Equal(t, "question", list[1].Kind)
	require.NotNil(t, list[0].Approval)
	assert.JSONEq(t, string(a.ToolCall), string(list[0].Approval.ToolCall))
	assert.Equal(t, a.Options, list[0].Approval.Options)
	require.NotNil(t, list[0].Questions[0].Custom)
	assert.False(t, *list[0].Questions[0].Custom, "no Other for an approval")

	// A device the user let approve without a passkey (the weaker opt-in).
	_, optIn, err := s.Devices().Add("old laptop", "", nil, nil, true)
	require.NoError(t, err)
	code, _ = do(t, s, http.MethodPost, "/question/"+tk.ID+"/reply", `{"answers":[["yes please"]]}`, authHeaders(s, optIn))
	assert.Equal(t, http.StatusBadRequest, code, "typed text is no option of the agent's")
	code, _ = do(t, s, http.MethodPost, "/question/"+tk.ID+"/reply", `{"answers":[["Allow once"]]}`, authHeaders(s, optIn))
	require.Equal(t, http.StatusOK, code)
	<-tk.Done()
	assert.Equal(t, []string{"Allow once"}, tk.Result().Answers[0].Answer.Labels)
	assert.Equal(t, permission.SourceDesk, tk.Result().Source)
}

// openApproval puts an approval of "rm -rf build" on board.
func openApproval(board *permission.Board) *permission.Ticket {
	a := &permission.Approval{ToolCall: json.RawMessage(`{"toolCallId":"t1","kind":"execute","title":"rm -rf build","rawInput":{"command":"rm -rf build"}}`),
		Options: []permission.ApprovalOption{{OptionID: "allow", Name: "Allow once", Kind: "allow_once"}, {OptionID: "reject", Name: "Reject", Kind: "reject_once"}}}
	q := permission.Question{Header: "Approval: execute", Question: "rm -rf build", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow once"}, {Label: "Reject"}}}
	return board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Questions: []permission.Question{q}, Approval: a})
}
