package permission

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/toolinfo"
)

// Peer is the client as the asking flow sees it.
type Peer interface {
	// RequestPermission sends session/request_permission and waits for the
	// response. When ctx ends first the request must be withdrawn (ACP's
	// $/cancel_request) and ctx's error returned.
	RequestPermission(ctx context.Context, params []byte) ([]byte, error)
	// Notify sends a notification, such as session/update.
	Notify(ctx context.Context, method string, params any) error
}

// Ask asks a question set: a tool call showing the questions, then one
// permission request per question (several for a multi-select asked a pick
// at a time), follow-ups of the picked options right after their question,
// and an update summarising the answers. A cancelled outcome, or ctx
// ending, ends the set with no further question: Result.Cancelled. An error
// means the client could not be asked (it went away, or answered nonsense).
//
// When ctx ends first the set was settled elsewhere (the desk, a timeout,
// session/cancel): Ask then leaves the summary to its caller, who knows the
// outcome (Report).
func Ask(ctx context.Context, p Peer, req Request) (Result, error) {
	if req.ToolCallID == "" {
		req.ToolCallID, req.OwnToolCall = "askbridge-"+randomID(), true
	}
	a := &asking{peer: p, req: req, callID: req.ToolCallID, own: req.OwnToolCall}
	a.show(ctx)
	queue := make([]queued, len(req.Questions))
	for i, q := range req.Questions {
		queue[i] = queued{q: q, path: indexPath(i), index: i}
	}
	var res Result
	for i := 0; i < len(queue); i++ {
		item := queue[i]
		ask := a.askOne
		if req.YesNo {
			ask = a.askYesNo
		}
		ans, cancelled, err := ask(ctx, item.q, i, len(queue))
		if err != nil {
			a.finish(ctx, nil, "failed")
			return Result{}, err
		}
		if cancelled {
			if ctx.Err() != nil {
				return Result{Cancelled: true, Reason: context.Cause(ctx).Error()}, nil
			}
			a.finish(ctx, nil, "failed")
			return Result{Cancelled: true, Reason: "the user dismissed the question"}, nil
		}
		res.Answers = append(res.Answers, Answered{Question: item.q, Answer: ans, Path: item.path, Index: item.index})
		queue = slices.Insert(queue, i+1, followUps(item, ans)...)
	}
	a.finish(ctx, res.Answers, "completed")
	return res, nil
}

type queued struct {
	q     Question
	path  string
	index int
}

// followUps are the questions that the picked options of item bring, in
// option order.
func followUps(item queued, ans Answer) []queued {
	var out []queued
	for _, o := range item.q.Options {
		if !slices.Contains(ans.Labels, o.Label) {
			continue
		}
		for j, fq := range item.q.FollowUps[o.Label] {
			out = append(out, queued{q: fq, path: followUpPath(item.path, o.Label, j), index: -1})
		}
	}
	return out
}

type asking struct {
	peer   Peer
	req    Request
	callID string
	own    bool // the tool call is askbridge's, not the agent's
}

// maxRefused is how many typed answers its kind refuses askOne asks a
// question again for, before the set fails as on any answer it cannot read
// (a client that sends the same text whatever it is shown).
const maxRefused = 3

// askOne asks one question until it has an answer.
func (a *asking) askOne(ctx context.Context, q Question, index, total int) (Answer, bool, error) {
	var ans Answer
	var picked []string
	var again string
	refused := 0
	for {
		if ctx.Err() != nil {
			return Answer{}, true, nil
		}
		params := Render(Prompt{SessionID: a.req.SessionID, ToolCallID: a.callID, Q: q, Index: index, Total: total, Round: a.req.Round, Picked: picked, Deadline: a.req.Deadline, Again: again})
		resp, err := a.peer.RequestPermission(askingSecret(ctx, q.Kind.Secret), params)
		if err != nil {
			if ctx.Err() != nil {
				return Answer{}, true, nil
			}
			return Answer{}, false, fmt.Errorf("asking %q: %w", q.Question, err)
		}
		pk, err := ParseOutcome(q, resp)
		var notOfKind *NotOfKind
		if errors.As(err, &notOfKind) && refused < maxRefused {
			again, refused = notOfKind.Error(), refused+1 // typed, but not what its kind takes
			continue
		}
		if err != nil {
			return Answer{}, false, err
		}
		again = ""
		if pk.Cancelled {
			return Answer{}, true, nil
		}
		merged := mergeLabels(q, picked, pk.Labels)
		nothingNew := len(merged) == len(picked) && len(picked) > 0
		picked = merged
		ans.Labels = picked
		if pk.Other {
			ans.Other, ans.Custom = true, pk.Custom
		}
		// One pick answers a single-select; a multi-select is answered by all
		// picks at once, Other, Done, running out of options, or a pick that
		// adds nothing (a client that keeps sending the same choice).
		if !q.Kind.Many || pk.All || pk.Other || pk.Done || nothingNew || len(picked) >= len(q.Options) {
			return ans, false, nil
		}
	}
}

func mergeLabels(q Question, have, add []string) []string {
	var out []string
	for _, o := range q.Options {
		if slices.Contains(have, o.Label) || slices.Contains(add, o.Label) {
			out = append(out, o.Label)
		}
	}
	return out
}

// show puts the questions in front of the user as a tool call before the
// first permission request: the agent's own call is updated, or a new one
// started.
func (a *asking) show(ctx context.Context) {
	var texts []string
	for _, q := range a.req.Questions {
		var opts []toolinfo.Option
		for _, o := range q.Options {
			opts = append(opts, toolinfo.Option{Label: o.Label, Description: o.Description})
		}
		texts = append(texts, content(q, opts))
	}
	heading := "Questions"
	if qs := a.req.Questions; len(qs) > 0 {
		heading = questionTitle(qs[0], 0, 1, a.req.Round)
		if len(qs) > 1 {
			heading = toolinfo.Title(qs[0].Header+" and more", 0, 1, a.req.Round)
		}
	}
	if !a.req.Deadline.IsZero() {
		texts = append(texts, toolinfo.DeadlineLine(a.req.Deadline))
	}
	content := textContent(strings.Join(texts, "\n\n"))
	var update acp.SessionUpdate
	if a.own {
		update = acp.StartToolCall(acp.ToolCallId(a.callID), heading, acp.WithStartKind(acp.ToolKind(toolinfo.Kind)),
			acp.WithStartStatus(acp.ToolCallStatusPending), acp.WithStartContent(content))
	} else {
		update = acp.UpdateToolCall(acp.ToolCallId(a.callID), acp.WithUpdateTitle(heading), acp.WithUpdateKind(acp.ToolKind(toolinfo.Kind)),
			acp.WithUpdateStatus(acp.ToolCallStatusPending), acp.WithUpdateContent(content))
	}
	a.peer.Notify(ctx, acp.ClientMethodSessionUpdate, acp.SessionNotification{SessionId: acp.SessionId(a.req.SessionID), Update: update})
}

// finish summarises the set on its tool call.
func (a *asking) finish(ctx context.Context, answers []Answered, status string) {
	res := Result{Answers: answers, Cancelled: status != "completed"}
	Report(context.WithoutCancel(ctx), a.peer, a.req, res)
}

// SecretAnswer stands in the summary for the answer to a Secret question.
const SecretAnswer = "(answered; not shown)"

// Report shows how a set ended on its tool call: "Database: Postgres" per
// answer, or "Not answered.". Askbridge's own tool call is completed (or
// failed); the agent's is left for the agent to complete.
func Report(ctx context.Context, p Peer, req Request, res Result) {
	var lines []string
	for _, an := range res.Answers {
		text := an.Answer.Text()
		if an.Question.Kind.Secret {
			text = SecretAnswer
		}
		lines = append(lines, toolinfo.SummaryLine(an.Question.Header, text))
	}
	status := acp.ToolCallStatusCompleted
	if res.Cancelled {
		lines, status = []string{"Not answered."}, acp.ToolCallStatusFailed
	}
	if !req.OwnToolCall {
		status = acp.ToolCallStatusInProgress // the agent's own call: the agent completes it
	}
	update := acp.UpdateToolCall(acp.ToolCallId(req.ToolCallID), acp.WithUpdateStatus(status),
		acp.WithUpdateContent(textContent(strings.Join(lines, "\n"))))
	p.Notify(ctx, acp.ClientMethodSessionUpdate, acp.SessionNotification{SessionId: acp.SessionId(req.SessionID), Update: update})
}

func randomID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}
