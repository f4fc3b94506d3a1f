package notify

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
)

// An approval's events are approval.asked, approval.answered...: a hook or
// webhook tells them from questions, and sees what will run.
func TestApprovalEvents(t *testing.T) {
	a := &permission.Approval{ToolCall: json.RawMessage(`{"title":"rm -rf build"}`), Options: []permission.ApprovalOption{{OptionID: "ok", Name: "Allow once", Kind: "allow_once"}}}
	p := permission.Pending{ID: "q1", Kind: permission.KindApproval, Approval: a, State: permission.StatePending,
		Questions: []permission.Question{{Header: "Approval", Question: "rm -rf build", Options: []permission.Option{{Label: "Allow once"}}}}}
	asked := fromBoard(permission.Event{Type: permission.EventAsked, Pending: p}, "", time.Now())
	assert.Equal(t, "approval.asked", asked.Event)
	assert.Equal(t, permission.KindApproval, asked.Kind)
	assert.Equal(t, a, asked.Approval)
	assert.Contains(t, asked.Title(), "rm -rf build")
	assert.True(t, (&desktop{}).wants(asked), "a desktop notification for an approval that waits")

	p.State, p.Result = permission.StateAnswered, &permission.Result{Source: permission.SourceDesk, Answers: []permission.Answered{{Question: p.Questions[0], Answer: permission.Answer{Labels: []string{"Allow once"}}}}}
	done := fromBoard(permission.Event{Type: permission.EventReplied, Pending: p}, "", time.Now())
	assert.Equal(t, "approval.answered", done.Event)
	assert.Equal(t, permission.SourceDesk, done.Source)

	q := fromBoard(permission.Event{Type: permission.EventAsked, Pending: permission.Pending{ID: "q2", State: permission.StatePending}}, "", time.Now())
	assert.Equal(t, Asked, q.Event)
	assert.Equal(t, permission.KindQuestion, q.Kind)
}
