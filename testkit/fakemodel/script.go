package fakemodel

import (
	"fmt"
	"strings"
)

// callID is the id of the model's n-th question tool call. The index is in
// the id so the conversation alone says how far the script got: the agents
// resend the whole history on every request.
func callID(prefix string, n int) string { return fmt.Sprintf("%s_askbridge_%d", prefix, n) }

// turn is what the model does next: call Script.Calls[Call], or reply Text.
type turn struct {
	Call int // -1: text
	Text string
}

// next records the results found in one request's conversation and decides.
// found maps tool call ids to their results.
func (s *Server) next(offered bool, found map[string]ToolResult, prefix string) turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	answered := 0
	for ; ; answered++ {
		id := callID(prefix, answered)
		r, ok := found[id]
		if !ok {
			break
		}
		if !s.seen[id] {
			s.seen[id] = true
			r.ID, r.Call = id, answered
			s.results = append(s.results, r)
		}
	}
	if offered && answered < len(s.script.Calls) {
		return turn{Call: answered}
	}
	if answered == 0 {
		return turn{Call: -1, Text: "OK."}
	}
	var quoted []string
	for n := range answered {
		quoted = append(quoted, fmt.Sprintf("%q", found[callID(prefix, n)].Text))
	}
	return turn{Call: -1, Text: "Thanks. The tool said: " + strings.Join(quoted, " | ")}
}
