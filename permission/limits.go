package permission

import (
	"fmt"
	"os"
	"strconv"
)

// Limits bound a question set. Agents' own tools use the defaults.
type Limits struct {
	MaxQuestions int // ASK_MAX_QUESTIONS, default 4
	MaxOptions   int // ASK_MAX_OPTIONS, default 4
	HeaderMax    int // ASK_HEADER_MAX_LENGTH, default 12
	QuestionMax  int // ASK_QUESTION_MAX_LENGTH, default 500
}

// DefaultLimits are the limits of Claude's AskUserQuestion.
func DefaultLimits() Limits {
	return Limits{MaxQuestions: 4, MaxOptions: 4, HeaderMax: 12, QuestionMax: 500}
}

// LimitsFromEnv reads the limits from the environment; a variable that is
// set but not a positive whole number is an error naming it.
func LimitsFromEnv() (Limits, error) {
	l := DefaultLimits()
	for _, v := range []struct {
		name string
		dst  *int
	}{
		{"ASK_MAX_QUESTIONS", &l.MaxQuestions},
		{"ASK_MAX_OPTIONS", &l.MaxOptions},
		{"ASK_HEADER_MAX_LENGTH", &l.HeaderMax},
		{"ASK_QUESTION_MAX_LENGTH", &l.QuestionMax},
	} {
		s, ok := os.LookupEnv(v.name)
		if !ok || s == "" {
			continue
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return l, fmt.Errorf("%s=%q: want a whole number of at least 1", v.name, s)
		}
		*v.dst = n
	}
	if l.MaxOptions < 2 {
		return l, fmt.Errorf("ASK_MAX_OPTIONS=%d: a question needs at least 2 options", l.MaxOptions)
	}
	return l, nil
}
