//go:build unix

package adapter

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// sdkAsk is `_askbridge/ask` as an agent's hook sends it (format ""), or as
// `askbridge ask` sends it over the ask socket (format "cli").
func sdkAsk(format string) func(k kind) string {
	return func(k kind) string {
		qs, _ := json.Marshal([]permission.Question{k.question()})
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"_askbridge/ask","params":{"sessionId":"s1","questions":%s,"format":%q}}`, qs, format)
	}
}

// sdkHeard reads the Agent SDK's canUseTool result: allow with the answers
// by question text, deny with interrupt for a cancel, deny saying nobody
// answered in time.
func sdkHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var r struct {
		Behavior     string `json:"behavior"`
		Message      string `json:"message"`
		Interrupt    *bool  `json:"interrupt"`
		UpdatedInput struct {
			Answers map[string]string `json:"answers"`
		} `json:"updatedInput"`
	}
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	switch {
	case r.Behavior == "deny" && r.Message == permission.NoAnswerInTime:
		return heard{state: permission.StateTimeout}
	case r.Behavior != "allow":
		return heard{state: permission.StateCancelled}
	}
	h := answered()
	for q, a := range r.UpdatedInput.Answers {
		h.answers[q] = []string{a}
	}
	return h
}

// cliHeard reads what `askbridge ask` prints as a script reads it: the
// answers by header, the picks joined with ", ", then "Other (custom:
// text)" for typed text or "Other" for Other with none.
func cliHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var r struct {
		Answers   map[string]string `json:"answers"`
		Cancelled bool              `json:"cancelled"`
		TimedOut  bool              `json:"timedOut"`
	}
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	switch {
	case r.TimedOut:
		return heard{state: permission.StateTimeout}
	case r.Cancelled || r.Answers == nil:
		return heard{state: permission.StateCancelled}
	}
	h := answered()
	for _, q := range k.asked() {
		s, ok := r.Answers[q.Header]
		if !ok {
			continue
		}
		var items []string
		picks, typed, hasTyped := strings.Cut(s, "Other (custom: ")
		if hasTyped {
			typed = strings.TrimSuffix(typed, ")")
		} else if p, ok := strings.CutSuffix(s, "Other"); ok {
			picks, typed, hasTyped = p, permission.OtherWithoutText, true
		}
		for _, p := range strings.Split(strings.TrimSuffix(picks, ", "), ", ") {
			if p != "" {
				items = append(items, p)
			}
		}
		if hasTyped {
			items = append(items, typed)
		}
		h.answers[q.Question] = items
	}
	return h
}
