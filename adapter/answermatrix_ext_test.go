//go:build unix

package adapter

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect/cursor"
	"github.com/askbridge/askbridge/permission"
)

// The agents that ask with a method of their own, which askbridge forwards
// to the client first and answers only when the client does not know it
// (-32601): Cursor, Kiro, Grok.

func extDialects() []matrixDialect {
	return []matrixDialect{
		{name: "cursor", multi: true, joinedTyped: true, asForm: true, ask: cursorAsk, decode: cursorHeard,
			send: func(t *testing.T, c *cell, k kind) {
				// Cursor's request names no session: its tool call does.
				c.h.Agent.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"tc_mx","title":"Ask question","kind":"other","status":"pending"}}}`)
				c.h.Agent.Send(cursorAsk(k))
			}, preface: unknownTo("cursor/ask_question")},
		{name: "kiro", joined: true, followUps: true, ask: kiroAsk, decode: kiroHeard, preface: unknownTo("_kiro/userInput")},
		{name: "grok", multi: true, asForm: true, ask: grokAsk, decode: grokHeard, preface: unknownTo("_x.ai/ask_user_question")},
	}
}

// unknownTo answers the forwarded request as a client that does not know
// method.
func unknownTo(method string) func(t *testing.T, c *cell) {
	return func(t *testing.T, c *cell) { c.h.UnknownMethod(t, method) }
}

// cursorAsk is Cursor's cursor/ask_question, option ids apart from labels.
func cursorAsk(k kind) string {
	q := k.question()
	var opts []map[string]string
	for i, o := range q.Options {
		opts = append(opts, map[string]string{"id": fmt.Sprintf("o%d", i), "label": o.Label})
	}
	b, _ := json.Marshal(map[string]any{"toolCallId": "tc_mx", "title": q.Header,
		"questions": []any{map[string]any{"id": "q", "prompt": q.Question, "options": opts, "allowMultiple": q.Kind.Many}}})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"cursor/ask_question","params":%s}`, b)
}

// cursorHeard reads Cursor's outcome: answered with option ids, skipped
// with the answer in words as the reason, cancelled.
func cursorHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var r struct {
		Outcome struct {
			Outcome string `json:"outcome"`
			Reason  string `json:"reason"`
			Answers []struct {
				SelectedOptionIDs []string `json:"selectedOptionIds"`
			} `json:"answers"`
		} `json:"outcome"`
	}
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	q := k.question()
	switch o := r.Outcome; {
	case o.Outcome == "skipped" && o.Reason == cursor.TimeoutReason:
		return heard{state: permission.StateTimeout}
	case o.Outcome == "skipped":
		h := answered()
		h.answers[q.Question] = []string{o.Reason}
		return h
	case o.Outcome == "answered" && len(o.Answers) == 1:
		h := answered()
		var items []string
		for _, id := range o.Answers[0].SelectedOptionIDs {
			var i int
			fmt.Sscanf(id, "o%d", &i)
			items = append(items, q.Options[i].Label)
		}
		h.answers[q.Question] = items
		return h
	}
	return heard{state: permission.StateCancelled}
}

// kiroAsk is Kiro's _kiro/userInput; SQLite's sub-options are the
// follow-up.
func kiroAsk(k kind) string {
	q := k.question()
	var opts []map[string]any
	for _, o := range q.Options {
		opt := map[string]any{"title": o.Label, "description": o.Description}
		if sub := q.FollowUps[o.Label]; len(sub) == 1 {
			var subs []map[string]string
			for _, s := range sub[0].Options {
				subs = append(subs, map[string]string{"title": s.Label})
			}
			opt["subOptionsLabel"], opt["subOptions"] = sub[0].Question, subs
		}
		opts = append(opts, opt)
	}
	b, _ := json.Marshal(map[string]any{"sessionId": "s1", "toolCallId": "tc_mx", "question": q.Question, "options": opts})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"_kiro/userInput","params":%s}`, b)
}

var kiroSub = regexp.MustCompile(`^(.*) \[(.*)\]$`)

// kiroHeard reads Kiro's answer: the title, "Title [Sub1, Sub2]", or the
// typed text; dismissed; NoAnswerInTime in words.
func kiroHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var r struct {
		Action string `json:"action"`
		Answer string `json:"answer"`
	}
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	switch {
	case r.Action != "answered":
		return heard{state: permission.StateCancelled}
	case r.Answer == permission.NoAnswerInTime:
		return heard{state: permission.StateTimeout}
	}
	h := answered()
	if m := kiroSub.FindStringSubmatch(r.Answer); m != nil && k.followUp {
		h.answers[k.question().Question] = []string{m[1]}
		h.answers[qSQLite.Question] = []string{m[2]}
		return h
	}
	h.answers[k.question().Question] = []string{r.Answer}
	return h
}

// grokAsk is Grok Build's _x.ai/ask_user_question.
func grokAsk(k kind) string {
	q := k.question()
	b, _ := json.Marshal(map[string]any{"sessionId": "s1", "toolCallId": "tc_mx", "mode": "default",
		"questions": []any{map[string]any{"question": q.Question, "options": q.Options, "multiSelect": q.Kind.Many}}})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"_x.ai/ask_user_question","params":%s}`, b)
}

// grokHeard reads Grok's answer: the labels per question, "Other" standing
// for the typed text in annotations[question].notes.
func grokHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var r struct {
		Outcome     string              `json:"outcome"`
		Answers     map[string][]string `json:"answers"`
		Annotations map[string]struct {
			Notes string `json:"notes"`
		} `json:"annotations"`
	}
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	if r.Outcome != "accepted" {
		return heard{state: permission.StateCancelled}
	}
	h := answered()
	for q, labels := range r.Answers {
		var items []string
		for _, l := range labels {
			if l != "Other" {
				items = append(items, l)
				continue
			}
			note := r.Annotations[q].Notes
			if note == permission.NoAnswerInTime {
				return heard{state: permission.StateTimeout}
			}
			items = append(items, note)
		}
		h.answers[q] = items
	}
	return h
}
