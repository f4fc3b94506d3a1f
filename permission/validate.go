package permission

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Violation is one broken rule, at the path of the offending value.
type Violation struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (v Violation) String() string { return v.Path + ": " + v.Message }

// ValidationError lists every rule a question set breaks.
type ValidationError struct {
	Violations []Violation
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.String()
	}
	return strings.Join(parts, "; ")
}

// MaxFollowUpDepth is how deep follow-up questions may nest.
const MaxFollowUpDepth = 3

// Validate checks a question set against the limits: for askbridge's own
// inputs (_askbridge/ask, `askbridge ask`). These also need every header of
// the set, follow-ups included, to be unique: `askbridge ask` keys its
// answers by header, so a repeated one would lose an answer. It returns nil
// or a *ValidationError listing every violation.
func Validate(qs []Question, lim Limits) error {
	return validate(qs, lim, true)
}

// ValidateBridged checks a question set an agent's own tool produced. Such
// agents allow longer headers (Qwen and OpenCode: 30), which are shortened
// for display rather than rejected; every other rule holds.
func ValidateBridged(qs []Question, lim Limits) error {
	return validate(qs, lim, false)
}

func validate(qs []Question, lim Limits, strictHeader bool) error {
	v := &validator{lim: lim, strictHeader: strictHeader}
	if strictHeader {
		v.headers = map[string]string{}
	}
	v.set("questions", qs, 0)
	if len(v.out) == 0 {
		return nil
	}
	return &ValidationError{Violations: v.out}
}

type validator struct {
	lim          Limits
	strictHeader bool
	headers      map[string]string // header -> path of its first use; nil: not checked
	out          []Violation
}

func (v *validator) add(path, format string, args ...any) {
	v.out = append(v.out, Violation{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) set(path string, qs []Question, depth int) {
	if len(qs) < 1 || len(qs) > v.lim.MaxQuestions {
		v.add(path, "must have 1-%d items", v.lim.MaxQuestions)
	}
	seen := map[string]bool{}
	for i, q := range qs {
		qp := path + "[" + strconv.Itoa(i) + "]"
		v.question(qp, q, depth)
		if q.Question != "" {
			if seen[q.Question] {
				v.add(qp+".question", "duplicate question text %q", q.Question)
			}
			seen[q.Question] = true
		}
	}
}

func (v *validator) question(path string, q Question, depth int) {
	v.text(path+".question", q.Question, v.lim.QuestionMax)
	if v.strictHeader {
		v.text(path+".header", q.Header, v.lim.HeaderMax)
		v.uniqueHeader(path, q.Header)
	} else if q.Header == "" {
		v.add(path+".header", "String must contain at least 1 character(s)")
	}
	if len(q.Options) < 2 || len(q.Options) > v.lim.MaxOptions {
		v.add(path+".options", "must have 2-%d items", v.lim.MaxOptions)
	}
	labels := map[string]bool{}
	for i, o := range q.Options {
		op := path + ".options[" + strconv.Itoa(i) + "].label"
		if strings.TrimSpace(o.Label) == "" {
			v.add(op, "String must contain at least 1 character(s)")
			continue
		}
		if o.Label == OtherID || o.Label == DoneID {
			v.add(op, "%q is reserved for askbridge's own option", o.Label)
		}
		if labels[o.Label] {
			v.add(op, "duplicate label %q", o.Label)
		}
		labels[o.Label] = true
	}
	for _, label := range sortedKeys(q.FollowUps) {
		fp := path + ".followUps[" + strconv.Quote(label) + "]"
		if !labels[label] {
			v.add(fp, "no option with this label")
		}
		if depth+1 > MaxFollowUpDepth {
			v.add(fp, "follow-ups may nest at most %d levels", MaxFollowUpDepth)
			continue
		}
		v.set(fp, q.FollowUps[label], depth+1)
	}
}

// uniqueHeader reports a header already used elsewhere in the set.
func (v *validator) uniqueHeader(path, header string) {
	if v.headers == nil || strings.TrimSpace(header) == "" {
		return
	}
	if first, ok := v.headers[header]; ok {
		v.add(path+".header", "duplicate header %q (also at %s): answers are keyed by header, so each question needs its own", header, first)
		return
	}
	v.headers[header] = path
}

func (v *validator) text(path, s string, max int) {
	n := utf8.RuneCountInString(s)
	switch {
	case strings.TrimSpace(s) == "":
		v.add(path, "String must contain at least 1 character(s)")
	case n > max:
		v.add(path, "String must contain at most %d character(s)", max)
	}
}
