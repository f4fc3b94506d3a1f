package inbox

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/permission"
)

// In the inbox an approval's Other is "deny, with a reason": the reply
// picks the agent's reject option and carries the text as the reason; a
// plain pick goes as it was. A set a device is answering says so.
func TestTheInboxDeniesWithAReason(t *testing.T) {
	s := Set{ID: "q1", Kind: permission.KindApproval,
		Questions: []Question{{Question: "rm -rf build", Header: "Approval", Custom: new(false),
			Options: []permission.Option{{Label: "Allow"}, {Label: "Always allow"}, {Label: "Reject"}}}},
		Approval: &permission.Approval{Options: []permission.ApprovalOption{{OptionID: "a", Name: "Allow", Kind: "allow_once"},
			{OptionID: "aa", Name: "Always allow", Kind: "allow_always"}, {OptionID: "r", Name: "Reject", Kind: "reject_once"}}}}
	qs := s.questions()
	assert.False(t, qs[0].Kind.Fixed, "Other is offered, as Deny…")
	assert.Contains(t, qs[0].Question, denyHint)

	typed := permission.Result{Answers: []permission.Answered{{Question: qs[0], Path: "questions[0]", Answer: permission.Answer{Other: true, Custom: "move it to archive/"}}}}
	answers, reason := s.answersOf(typed, 1)
	assert.Equal(t, [][]string{{"Reject"}}, answers)
	assert.Equal(t, "move it to archive/", reason)

	picked := permission.Result{Answers: []permission.Answered{{Question: qs[0], Path: "questions[0]", Answer: permission.Answer{Labels: []string{"Allow"}}}}}
	answers, reason = s.answersOf(picked, 1)
	assert.Equal(t, [][]string{{"Allow"}}, answers)
	assert.Empty(t, reason)

	q := Set{ID: "q2", Questions: []Question{{Question: "Which?", Options: []permission.Option{{Label: "a"}, {Label: "b"}}}}}
	assert.NotContains(t, q.questions()[0].Question, denyHint, "a question's Other is its own")

	ib := &inbox{}
	s.Claim = &Claim{Device: "d1", Name: "Pixel 8"}
	assert.Contains(t, ib.heading(s), "being answered on Pixel 8")
	s.Claim = &Claim{Device: "inbox", Name: "the terminal inbox"}
	assert.NotContains(t, ib.heading(s), "being answered")
}
