package permission

import "strconv"

// CancelMessage is what an SDK-style asker reads when the user cancelled.
const CancelMessage = "User cancelled the question"

// SDKResult is the Claude Agent SDK's canUseTool result for AskUserQuestion:
// allow with the answers keyed by question text, or deny with interrupt.
// questions is echoed as updatedInput.questions: pass the asker's own JSON
// to return it unchanged, or the decoded []Question.
func SDKResult(questions any, r Result) map[string]any {
	if r.Cancelled {
		return map[string]any{"behavior": "deny", "message": CancelMessage, "interrupt": true}
	}
	answers := map[string]string{}
	for _, a := range r.Answers {
		answers[a.Question.Question] = a.Answer.Text()
	}
	if questions == nil {
		questions = []Question{}
	}
	return map[string]any{
		"behavior":     "allow",
		"updatedInput": map[string]any{"questions": questions, "answers": answers},
	}
}

// QwenAnswers are the answers as Qwen Code reads them: by question index,
// multi-select joined with ", ", typed text verbatim. Follow-ups have no
// index in Qwen's set and are left out.
func QwenAnswers(r Result) map[string]string {
	out := map[string]string{}
	for _, a := range r.Answers {
		if a.Index >= 0 {
			out[strconv.Itoa(a.Index)] = a.Answer.Text()
		}
	}
	return out
}

// CLIAnswers are the answers as `askbridge ask` prints them: by header,
// typed text as "Other (custom: text)".
func CLIAnswers(r Result) map[string]string {
	out := map[string]string{}
	for _, a := range r.Answers {
		parts := append([]string(nil), a.Answer.Labels...)
		switch {
		case a.Answer.Other && a.Answer.Custom != "":
			parts = append(parts, "Other (custom: "+a.Answer.Custom+")")
		case a.Answer.Other:
			parts = append(parts, "Other") // the client could not send the typed text
		}
		text := ""
		for i, p := range parts {
			if i > 0 {
				text += ", "
			}
			text += p
		}
		out[a.Question.Header] = text
	}
	return out
}

// OpenCodeAnswers are the answers as OpenCode's reply route takes them: one
// array per question of the set, in question order, typed text as an entry.
func OpenCodeAnswers(n int, r Result) [][]string {
	out := make([][]string, n)
	for i := range out {
		out[i] = []string{}
	}
	for _, a := range r.Answers {
		if a.Index < 0 || a.Index >= n {
			continue
		}
		vals := append([]string{}, a.Answer.Labels...)
		if a.Answer.Other {
			if a.Answer.Custom != "" {
				vals = append(vals, a.Answer.Custom)
			} else {
				vals = append(vals, OtherWithoutText)
			}
		}
		out[a.Index] = vals
	}
	return out
}
