package toolinfo

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Kind is the ACP tool kind questions are shown with: a question is the
// agent thinking aloud with the user, not an edit or a command.
const Kind = "think"

// HeaderMax is how many characters of a header a title shows; agents that
// allow longer headers (Qwen, OpenCode: 30) are shortened, not rejected.
const HeaderMax = 30

// Option is a choice as shown.
type Option struct{ Label, Description string }

// Title is the title of question index (0-based) of total, in round.
// "Database", "Database (2/3)", "Round 2 · Database (2/3)".
func Title(header string, index, total, round int) string {
	t := Shorten(header, HeaderMax)
	if total > 1 {
		t = fmt.Sprintf("%s (%d/%d)", t, index+1, total)
	}
	if round >= 2 {
		t = fmt.Sprintf("Round %d · %s", round, t)
	}
	return t
}

// Content is the question text followed by one line per option.
func Content(question string, options []Option) string {
	var b strings.Builder
	b.WriteString(question)
	for _, o := range options {
		b.WriteString("\n  - ")
		b.WriteString(o.Label)
		if o.Description != "" {
			b.WriteString(": ")
			b.WriteString(o.Description)
		}
	}
	return b.String()
}

// LinkText shows a link a question asks the user to open: the address in
// full on a line of its own, then its host, so that where it leads is
// plain to see whatever the address says before it.
func LinkText(link string) string {
	text := "Open this page in your browser (askbridge does not open it):\n" + link
	if u, err := url.Parse(link); err == nil && u.Host != "" {
		text += "\nHost: " + u.Host
	}
	return text
}

// OptionName is the button text of an option: "Label - Description".
func OptionName(o Option) string {
	if o.Description == "" {
		return o.Label
	}
	return o.Label + " - " + o.Description
}

// SummaryLine is one answered question: "Database: Postgres".
func SummaryLine(header, answer string) string {
	return Shorten(header, HeaderMax) + ": " + answer
}

// Shorten cuts s to max characters, marking the cut with an ellipsis.
func Shorten(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	if max < 1 {
		return ""
	}
	return string(r[:max-1]) + "…"
}

// DeadlineLine says until when a question can be answered, in the local
// time of the machine askbridge runs on, which is the user's.
func DeadlineLine(deadline time.Time) string {
	return "Answer by " + deadline.Format("15:04:05 MST") + "; after that the agent goes on without your answer."
}
