package permission

import (
	"strings"
	"time"
)

// Option is one choice of a question.
type Option struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// Question is one question, in the shape every dialect normalises to. Its
// JSON is question_json.go's.
type Question struct {
	Question string
	Header   string
	Options  []Option
	// Kind is what answer it takes (kind.go): one pick or many, typed text
	// or not, secret, a link. Dialects set all but Multi; the
	// AskUserQuestion input carries only multiSelect.
	Kind AnswerKind
	// Link is the web page a question of a Link kind asks the user to open
	// (a sign-in's verification page).
	Link string
	// FollowUps maps an option label to the questions asked next when the
	// user picks it, within the same set.
	FollowUps map[string][]Question
}

// Answer is what the user chose for one question.
type Answer struct {
	Labels []string `json:"labels,omitempty"` // chosen option labels, in option order
	Other  bool     `json:"other,omitempty"`  // "Other" was chosen
	Custom string   `json:"custom,omitempty"` // the text typed for Other; may be empty
}

// OtherWithoutText is the answer text when the user chose Other but the
// client could not send what they typed.
const OtherWithoutText = "The user chose \"Other\" and wants to type their own answer in the chat; ask them for it there."

// NoAnswerInTime is what a model reads for a question nobody answered
// before its deadline: not a refusal, so it goes on, and says what it chose.
const NoAnswerInTime = "The user did not answer in time. Go on with your best judgment, and say which option you assumed."

// Text is the answer as one string: labels joined with ", ", the typed
// text, or OtherWithoutText.
func (a Answer) Text() string {
	parts := append([]string(nil), a.Labels...)
	if a.Other {
		if a.Custom != "" {
			parts = append(parts, a.Custom)
		} else {
			parts = append(parts, OtherWithoutText)
		}
	}
	return strings.Join(parts, ", ")
}

// Answered is a question with its answer.
type Answered struct {
	Question Question `json:"question"`
	Answer   Answer   `json:"answer"`
	// Path names the question: "questions[0]", or for a follow-up
	// `questions[0].followUps["OAuth"][1]`.
	Path string `json:"path"`
	// Index is the question's place in the set, -1 for a follow-up.
	Index int `json:"index"`
}

// Result is the outcome of a question set: the answers in the order the
// questions were asked, or a cancel.
type Result struct {
	Answers   []Answered `json:"answers,omitempty"`
	Cancelled bool       `json:"cancelled,omitempty"`
	Reason    string     `json:"reason,omitempty"`
	// Source says where the set was resolved from (SourceClient,
	// SourceDesk, ...); the Board fills it in.
	Source Source `json:"source,omitempty"`
	// Device names the paired device that decided, when one did (By).
	Device string `json:"device,omitempty"`
	// DenyReason is what the user said when picking an approval's reject
	// option ("Deny…"): the agent gets its reject option, and the model
	// this text, the way its agent can read it.
	DenyReason string `json:"denyReason,omitempty"`
	// Signed is the passkey's proof of an approval decided at a page
	// (By.Signed), for the decisions log.
	Signed *Signed `json:"signed,omitempty"`
	// Proof is what the route that ended the set checked (By.Proof, which
	// the board's door fills in): the hub's answers carry it to the
	// askbridge, whose gate weighs it again.
	Proof Proof `json:"proof,omitempty"`
}

// Request is a question set to ask in a session.
type Request struct {
	SessionID  string
	ToolCallID string // the agent's tool call, when it has one
	// OwnToolCall says ToolCallID is askbridge's own (made up for a set
	// with no tool call of the agent's): Ask starts it and completes it.
	OwnToolCall bool
	Questions   []Question
	Round       int // the set's round in the session, from 1
	// Deadline, when set, is when the set times out; the questions say so.
	Deadline time.Time
	// Approval, when set, makes the set the agent's own permission request
	// (KindApproval) rather than a question.
	Approval *Approval
	// YesNo asks each question as a walk of yes/no requests, for a client
	// that can only say yes or no (yesno.go).
	YesNo bool
	// Context, when set, is what the agent said and planned before it
	// asked, for the cards (Pending.Context).
	Context *Context
	// From names where the set comes from, for its origin
	// (Board.DescribeFrom): "" is the board's own (Board.Describe); the
	// hub gives each askbridge's key.
	From string
}

// Recommended answers each question with its option whose label ends in
// "(Recommended)", else its first: the answer to a question nobody
// answered in time, with --on-timeout recommended.
func Recommended(qs []Question) Result {
	r := Result{Source: SourceTimeout}
	for i, q := range qs {
		if len(q.Options) == 0 || q.Kind.Link { // nobody opened the link
			continue
		}
		pick := q.Options[0].Label
		for _, o := range q.Options {
			if strings.HasSuffix(strings.TrimSpace(o.Label), "(Recommended)") {
				pick = o.Label
				break
			}
		}
		r.Answers = append(r.Answers, Answered{Question: q, Answer: Answer{Labels: []string{pick}}, Path: indexPath(i), Index: i})
	}
	return r
}
