package cursor

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/askbridge/askbridge/permission"
)

// A client that implements Cursor's methods answers them itself while the
// set is watched (dialect.Extension): these read its answer as the set's result,
// for the board. They never change what the agent gets.

// cursorResponse is the client's response: Cursor's result, or an error.
type cursorResponse struct {
	Result *struct {
		Outcome struct {
			Outcome string         `json:"outcome"`
			Reason  string         `json:"reason"`
			Answers []cursorAnswer `json:"answers"`
		} `json:"outcome"`
	} `json:"result"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// readCursor decodes a response, or says why it answers nothing.
func readCursor(resp json.RawMessage) (cursorResponse, *permission.Result) {
	var r cursorResponse
	switch {
	case json.Unmarshal(resp, &r) != nil:
		return r, &permission.Result{Cancelled: true, Reason: "unreadable answer from the editor"}
	case r.Error != nil:
		return r, &permission.Result{Cancelled: true, Reason: "the editor failed: " + r.Error.Message}
	case r.Result == nil:
		return r, &permission.Result{Cancelled: true, Reason: "no answer from the editor"}
	}
	return r, nil
}

// read is the client's answer to cursor/ask_question: the labels of the
// options it selected, per question; skipped or cancelled cancels the set.
func (p cursorAsk) read(resp json.RawMessage) permission.Result {
	r, failed := readCursor(resp)
	if failed != nil {
		return *failed
	}
	if o := r.Result.Outcome; o.Outcome != "answered" {
		return permission.Result{Cancelled: true, Reason: cmp.Or(o.Reason, o.Outcome+" in the editor")}
	}
	var res permission.Result
	for i, cq := range p.Questions {
		var a permission.Answer
		for _, ans := range r.Result.Outcome.Answers {
			if ans.QuestionID != cq.ID {
				continue
			}
			for _, o := range cq.Options {
				if slices.Contains(ans.SelectedOptionIDs, o.ID) {
					a.Labels = append(a.Labels, o.Label)
				}
			}
		}
		res.Answers = append(res.Answers, permission.Answered{Answer: a, Path: "questions[" + strconv.Itoa(i) + "]", Index: i})
	}
	return res
}

// read is the client's review of cursor/create_plan: accepted picks Accept,
// rejected Reject (with its reason as the typed text), anything else
// cancels the set.
func (p cursorPlan) read(resp json.RawMessage) permission.Result {
	r, failed := readCursor(resp)
	if failed != nil {
		return *failed
	}
	var a permission.Answer
	switch o := r.Result.Outcome; o.Outcome {
	case "accepted":
		a.Labels = []string{cursorAccept}
	case "rejected":
		a.Labels = []string{cursorReject}
		a.Other, a.Custom = o.Reason != "", o.Reason
	default:
		return permission.Result{Cancelled: true, Reason: cmp.Or(o.Reason, o.Outcome+" in the editor")}
	}
	return permission.Result{Answers: []permission.Answered{{Answer: a, Path: "questions[0]"}}}
}
