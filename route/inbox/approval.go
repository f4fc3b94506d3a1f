package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/askbridge/askbridge/internal/hubpage"
	"github.com/askbridge/askbridge/permission"
)

// An agent's tool approval needs the user's presence: a passkey on a paired
// device, at the hub's page. The inbox takes one only when the hub lets it
// (--inbox-approvals); otherwise it shows the approval, says where to
// answer it, and offers no choice the hub would refuse.

// Rules are what the hub lets the inbox do (GET /inbox).
type Rules struct {
	Approvals bool `json:"approvals"`
}

// rules asks the hub what the inbox may do. A hub that does not say (an
// older one) is taken to refuse approvals: nothing is offered that might be
// refused.
func (c *client) rules(ctx context.Context) (Rules, error) {
	var r Rules
	raw, status, err := c.do(ctx, "GET", "/inbox", nil)
	switch {
	case status == 404:
		return r, nil
	case err != nil:
		return r, err
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return r, fmt.Errorf("GET /inbox: %v", err)
	}
	return r, nil
}

// mayAnswer says whether the inbox may answer set s.
func (ib *inbox) mayAnswer(s Set) bool {
	return s.Kind != permission.KindApproval || ib.rules.Approvals
}

// showApproval shows an approval the inbox may not answer, once: what the
// agent wants to run, and where to approve or reject it.
func (ib *inbox) showApproval(s Set) {
	ib.told[s.ID] = true
	fmt.Fprintf(ib.out, "\n%s\n", ib.heading(s))
	for _, q := range s.Questions {
		fmt.Fprintln(ib.out, q.Question)
	}
	if cmd := approvalCommand(s.Approval); cmd != "" {
		fmt.Fprintf(ib.out, "  $ %s\n", cmd)
	}
	where := "the hub's page"
	if page := hubpage.Read(ib.hubSocket); page != "" {
		where += " (" + page + ")"
	}
	fmt.Fprintf(ib.out, "Approve or reject it on %s, with your paired device's passkey, or in the editor: this inbox takes no approvals (the hub would take them with --inbox-approvals).\n", where)
}

// approvalCommand is the command an approval would run, when its tool
// call says one (rawInput.command), on one line.
func approvalCommand(ap *permission.Approval) string {
	if ap == nil {
		return ""
	}
	var tc struct {
		RawInput struct {
			Command json.RawMessage `json:"command"`
		} `json:"rawInput"`
	}
	if json.Unmarshal(ap.ToolCall, &tc) != nil || len(tc.RawInput.Command) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(tc.RawInput.Command, &s) != nil {
		var argv []string
		if json.Unmarshal(tc.RawInput.Command, &argv) != nil {
			return ""
		}
		s = strings.Join(argv, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}
