package permission

import (
	"strconv"
	"strings"
)

// ModelText is a result's answers as a model reads them best, one line
// each, `"question"="answer"`, with what the user typed marked as typed so
// the model does not take it for one of its options. The MCP ask tool's
// result says it so, and so does an answer that reaches the model late,
// whichever side (the bridge or the hub) keeps it.
func (r Result) ModelText() string {
	var lines []string
	for _, a := range r.Answers {
		lines = append(lines, a.modelLine())
	}
	if len(lines) == 0 {
		lines = []string{"The user gave no answer."} // never an empty text for the model
	}
	return strings.Join(lines, "\n")
}

func (a Answered) modelLine() string {
	q := strconv.Quote(a.Question.Question)
	ans := a.Answer
	parts := append([]string(nil), ans.Labels...)
	switch {
	case ans.Other && ans.Custom != "" && len(parts) == 0:
		return q + "=" + strconv.Quote(ans.Custom) + " (typed by the user)"
	case ans.Other && ans.Custom != "":
		parts = append(parts, ans.Custom)
		return q + "=" + strconv.Quote(strings.Join(parts, ", ")) + " (" + strconv.Quote(ans.Custom) + " typed by the user)"
	case ans.Other:
		// The client could not carry the typed text.
		parts = append(parts, "Other")
		return q + "=" + strconv.Quote(strings.Join(parts, ", ")) + " (" + OtherWithoutText + ")"
	}
	return q + "=" + strconv.Quote(strings.Join(parts, ", "))
}
