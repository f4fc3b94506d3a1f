package cardcontext

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/askbridge/askbridge/adapter/record"
	"github.com/askbridge/askbridge/permission"
)

// maxPlan bounds the plan a card carries: its first entries, each of at
// most maxPlanEntry characters.
const (
	maxPlan      = 50
	maxPlanEntry = 300
)

// Of is what session's agent said and planned until now, for the
// card of the set it asks now (permission.Request.Context): its last
// message and plan decoded, cleaned, the secrets typed so far hidden. The
// last message of a set asked with a tool call (call) is the one that
// call ended; else the words since the latest tool call, if any. Nil when
// it said nothing.
func (c *Sessions) Of(session, call string) *permission.Context {
	c.mu.Lock()
	w := c.by[session]
	var lines [][]byte
	var plan []byte
	if w != nil {
		from, to := 0, w.n
		switch {
		case w.cut == w.n:
		case call != "" && slices.Contains(w.calls, call):
			to = w.cut
		default:
			from = w.cut
		}
		for k := from; k < to; k++ {
			lines = append(lines, w.lines[(w.start+k)%ringLines])
		}
		plan = w.plan
	}
	secrets := c.secrets
	// Decoded under the lock: the ring's memory is reused by the next
	// chunk. A set is asked rarely; the relay waits at most this long.
	var text strings.Builder
	for _, l := range lines {
		text.WriteString(chunkText(l))
	}
	entries := planEntries(plan)
	c.mu.Unlock()
	out := &permission.Context{Words: permission.Cleaned(hideSecrets(text.String(), secrets), MaxWords)}
	for _, e := range entries {
		if len(out.Plan) == maxPlan {
			break
		}
		e.Content = permission.Cleaned(hideSecrets(e.Content, secrets), maxPlanEntry)
		out.Plan = append(out.Plan, e)
	}
	if out.Empty() {
		return nil
	}
	return out
}

// chunkText is an agent_message_chunk's text; "" for another line, or a
// chunk of another content (an image).
func chunkText(line []byte) string {
	var l struct {
		Params struct {
			Update struct {
				SessionUpdate string `json:"sessionUpdate"`
				Content       struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			} `json:"update"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &l) != nil || l.Params.Update.SessionUpdate != "agent_message_chunk" || l.Params.Update.Content.Type != "text" {
		return ""
	}
	return l.Params.Update.Content.Text
}

func planEntries(line []byte) []permission.PlanEntry {
	if line == nil {
		return nil
	}
	var l struct {
		Params struct {
			Update struct {
				Entries []permission.PlanEntry `json:"entries"`
			} `json:"update"`
		} `json:"params"`
	}
	json.Unmarshal(line, &l)
	return l.Params.Update.Entries
}

// hideSecrets is s with every secret text in it replaced by the
// placeholder, and a secret's end at s's start or its start at s's end (a
// ring keeps whole chunks: the oldest may begin inside one) cut off. A
// secret shorter than record.MinConcealed is hidden only where it is all of s.
func hideSecrets(s string, secrets []string) string {
	for _, t := range secrets {
		if len(t) < record.MinConcealed {
			if strings.TrimSpace(s) == t {
				s = permission.SecretText
			}
			continue
		}
		s = strings.ReplaceAll(s, t, permission.SecretText)
		for k := len(t) - 1; k >= record.MinConcealed; k-- {
			if strings.HasPrefix(s, t[len(t)-k:]) {
				s = permission.SecretText + s[k:]
				break
			}
		}
		for k := len(t) - 1; k >= record.MinConcealed; k-- {
			if strings.HasSuffix(s, t[:k]) {
				s = s[:len(s)-k] + permission.SecretText
				break
			}
		}
	}
	return s
}
