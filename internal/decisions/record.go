package decisions

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/askbridge/askbridge/permission"
)

// Record is one decision: a set that ended, as the log keeps it.
type Record struct {
	Time time.Time `json:"time"` // when it ended
	// Agent, Host and CWD say which agent asked, on which machine, in
	// which folder; Instance is its connection on the hub.
	Agent    string          `json:"agent,omitempty"`
	Host     string          `json:"host,omitempty"`
	CWD      string          `json:"cwd,omitempty"`
	Instance string          `json:"instance,omitempty"`
	Session  string          `json:"session,omitempty"`
	Set      string          `json:"set"`
	Kind     permission.Kind `json:"kind"`
	// Asked is what was asked: the questions' headers and texts, or the
	// approval's tool call title. Digest, for an approval, is
	// "sha256:HEX" of its tool call's arguments (rawInput).
	Asked  string `json:"asked"`
	Digest string `json:"digest,omitempty"`
	// Outcome is the set's end state (answered, cancelled, timeout);
	// Answer the answers as the board shows them (a secret's typed text is
	// permission.SecretText), or the option an approval picked; Lasting
	// says that option was allow_always or reject_always.
	Outcome permission.State `json:"outcome"`
	Answer  string           `json:"answer,omitempty"`
	Lasting bool             `json:"lasting,omitempty"`
	// Reason is why: the user's reason for a denial, or why the set was
	// cancelled.
	Reason string `json:"reason,omitempty"`
	// Route is where it was decided (permission.SourceDesk, SourceHub,
	// SourceClient, ...), Device the paired device that decided, if any.
	Route    permission.Source `json:"route"`
	Device   string            `json:"device,omitempty"`
	WaitedMs int64             `json:"waitedMs"`
	// Signed, for an approval (or a denial with a reason) decided at a
	// paired device's page with its passkey, is the statement of what
	// was applied and the assertion over it: what Verify checks offline.
	Signed *permission.Signed `json:"signed,omitempty"`
}

// Origin is where a set came from, as the hub knows it.
type Origin struct {
	Agent, Host, CWD, Instance string
}

// Of is the record of p, a set that ended at time at.
func Of(p permission.Pending, from Origin, at time.Time) Record {
	r := Record{Time: at, Agent: from.Agent, Host: from.Host, CWD: from.CWD, Instance: from.Instance,
		Session: p.SessionID, Set: p.ID, Kind: p.Kind, Outcome: p.State}
	if r.Kind == "" {
		r.Kind = permission.KindQuestion
	}
	if !p.Asked.IsZero() {
		r.WaitedMs = max(0, at.Sub(p.Asked).Milliseconds())
	}
	if p.Approval != nil {
		r.Asked, r.Digest = approvalAsked(p)
	} else {
		var qs []string
		for _, q := range p.Questions {
			qs = append(qs, strings.TrimSpace(q.Header+": "+q.Question))
		}
		r.Asked = strings.Join(qs, " | ")
	}
	if res := p.Result; res != nil {
		shown := res.Redacted() // the board's is already; a caller's may not be
		r.Route, r.Device, r.Reason, r.Signed = shown.Source, shown.Device, shown.Reason, shown.Signed
		if shown.DenyReason != "" {
			r.Reason = shown.DenyReason
		}
		var as []string
		for _, a := range shown.Answers {
			if p.Approval != nil {
				r.Lasting = lasting(p.Approval, a.Answer.Labels)
				as = append(as, a.Answer.Text())
				continue
			}
			as = append(as, a.Question.Header+" → "+a.Answer.Text())
		}
		r.Answer = strings.Join(as, "; ")
	}
	return r
}

// approvalAsked is an approval's title and the digest of its arguments.
func approvalAsked(p permission.Pending) (title, digest string) {
	var tc struct {
		Title    string          `json:"title"`
		RawInput json.RawMessage `json:"rawInput"`
	}
	json.Unmarshal(p.Approval.ToolCall, &tc)
	title = tc.Title
	if title == "" && len(p.Questions) > 0 {
		title = p.Questions[0].Question
	}
	return title, Digest(tc.RawInput)
}

// lasting says whether the option picked by label is a lasting one.
func lasting(a *permission.Approval, labels []string) bool {
	for _, l := range labels {
		o, ok := a.Option(l)
		if !ok {
			for _, x := range a.Options { // labelled by its id (a nameless option)
				if x.OptionID == l {
					o, ok = x, true
				}
			}
		}
		if ok && o.Lasting() {
			return true
		}
	}
	return false
}
