package inbox

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/prompt"
)

// The inbox as one of the devices that answer (claims) and deny with a
// reason. Asking a set claims it for the inbox (POST /question/{id}/hold,
// renewed while the prompt is open); a set a paired device is answering is
// shown as "being answered on NAME", and the inbox takes it over only when
// the user says so. An approval's "Other" is "deny with a reason": the
// agent's reject option goes with the text as the reason.

// Claim is a set's claim as GET /question names it.
type Claim struct {
	Device string `json:"device"`
	Name   string `json:"name"`
}

// renewEvery is how often the inbox renews its claim while it asks (the
// hub's lease is a minute).
const renewEvery = 20 * time.Second

// claim claims set id for the inbox (takeover: from another device); 409
// is another device's claim, and returns who has it.
func (c *client) claim(ctx context.Context, id string, takeover bool) (int, *Claim, error) {
	var body any
	if takeover {
		body = map[string]bool{"takeover": true}
	}
	raw, status, err := c.doRaw(ctx, "POST", "/question/"+id+"/hold", body)
	var out struct {
		Claim *Claim `json:"claim"`
	}
	json.Unmarshal(raw, &out)
	return status, out.Claim, err
}

// take claims s for the inbox before it is asked; when a device has it,
// the user is asked whether to take it over. ok says to ask s.
func (ib *inbox) take(ctx context.Context, s Set) (ok bool, err error) {
	status, who, err := ib.c.claim(ctx, s.ID, false)
	if status != 409 {
		return status/100 == 2, nil // gone meanwhile, or the hub is too old to claim: the reply says
	}
	name := "another device"
	if who != nil && who.Name != "" {
		name = who.Name
	}
	q := permission.Question{Header: "Claimed", Question: "Being answered on " + name + ". Take it over here?", Kind: permission.Fixed,
		Options: []permission.Option{{Label: "Take over", Description: name + "'s answer will then be refused"}, {Label: "Leave it", Description: "skip it here"}}}
	res, err := permission.Ask(ctx, prompt.Peer{Prompter: ib.p}, permission.Request{SessionID: "inbox", ToolCallID: "inbox-claim-" + s.ID, Questions: []permission.Question{q}, Round: 1})
	if err != nil || res.Cancelled || len(res.Answers) == 0 || res.Answers[0].Answer.Text() != "Take over" {
		ib.skipped[s.ID] = time.Now()
		fmt.Fprintln(ib.out, "Left to "+name+".")
		return false, nil
	}
	status, _, _ = ib.c.claim(ctx, s.ID, true)
	return status/100 == 2, nil
}

// renew keeps the inbox's claim on id until ctx ends.
func (ib *inbox) renew(ctx context.Context, id string) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(renewEvery):
		}
		ib.c.claim(ctx, id, false)
	}
}

// answersOf is the reply to s for res: for an approval whose "Other" was
// typed, the agent's reject option with that text as the reason.
func (s Set) answersOf(res permission.Result, n int) (answers [][]string, reason string) {
	answers = replyOf(res, n)
	if s.Approval == nil || len(res.Answers) != 1 || !res.Answers[0].Answer.Other {
		return answers, ""
	}
	for _, kind := range []acp.PermissionOptionKind{acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways} {
		for _, o := range s.Approval.Options {
			if o.Kind == kind {
				label := o.Name
				if !s.hasLabel(label) {
					label = o.OptionID
				}
				return [][]string{{label}}, res.Answers[0].Answer.Custom
			}
		}
	}
	return answers, ""
}

func (s Set) hasLabel(label string) bool {
	for _, q := range s.Questions {
		for _, o := range q.Options {
			if o.Label == label {
				return true
			}
		}
	}
	return false
}

// denies says whether s is an approval the inbox can deny with a reason.
func (s Set) denies() bool {
	if s.Approval == nil || len(s.Questions) != 1 {
		return false
	}
	for _, o := range s.Approval.Options {
		if o.Kind == acp.PermissionOptionKindRejectOnce || o.Kind == acp.PermissionOptionKindRejectAlways {
			return true
		}
	}
	return false
}

// denyHint ends an approval's question in the inbox: the terminal's
// prompter shows its Other as Deny… and asks why.
const denyHint = prompt.DenyMark
