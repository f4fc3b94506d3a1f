package permission

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func q(text, header string, labels ...string) Question {
	out := Question{Question: text, Header: header}
	for _, l := range labels {
		out.Options = append(out.Options, Option{Label: l})
	}
	return out
}

func violations(err error) []string {
	var ve *ValidationError
	if err == nil {
		return nil
	}
	if !asValidation(err, &ve) {
		return []string{"not a ValidationError: " + err.Error()}
	}
	var out []string
	for _, v := range ve.Violations {
		out = append(out, v.String())
	}
	return out
}

func asValidation(err error, target **ValidationError) bool {
	ve, ok := err.(*ValidationError)
	if ok {
		*target = ve
	}
	return ok
}

func TestValidate(t *testing.T) {
	lim := DefaultLimits()
	five := []Question{q("1?", "a", "x", "y"), q("2?", "b", "x", "y"), q("3?", "c", "x", "y"), q("4?", "d", "x", "y"), q("5?", "e", "x", "y")}
	withFollow := q("Auth?", "Auth", "OAuth", "None")
	withFollow.FollowUps = map[string][]Question{"OAuth": {q("Which provider?", "Provider", "GitHub", "Google")}, "Basic": {q("Realm?", "Realm", "a", "b")}}
	withHeaderFollowUp := q("Auth?", "Auth", "OAuth", "None")
	withHeaderFollowUp.FollowUps = map[string][]Question{"OAuth": {q("Which provider?", "Auth", "GitHub", "Google")}}
	deep := q("L0?", "L0", "a", "b")
	cur := &deep
	for i := 1; i <= 4; i++ {
		next := q("L"+strings.Repeat("x", i)+"?", "L"+strconv.Itoa(i), "a", "b")
		cur.FollowUps = map[string][]Question{"a": {next}}
		cur = &cur.FollowUps["a"][0]
	}
	tests := []struct {
		name string
		qs   []Question
		want []string
	}{
		{"valid", []Question{q("Which database?", "Database", "Postgres", "SQLite")}, nil},
		{"no questions", nil, []string{"questions: must have 1-4 items"}},
		{"five questions", five, []string{"questions: must have 1-4 items"}},
		{"one option", []Question{q("Q?", "H", "only")}, []string{"questions[0].options: must have 2-4 items"}},
		{"five options", []Question{q("Q?", "H", "a", "b", "c", "d", "e")}, []string{"questions[0].options: must have 2-4 items"}},
		{"duplicate labels", []Question{q("Q?", "H", "a", "a")}, []string{`questions[0].options[1].label: duplicate label "a"`}},
		{"duplicate questions", []Question{q("Q?", "H", "a", "b"), q("Q?", "I", "a", "b")}, []string{`questions[1].question: duplicate question text "Q?"`}},
		{"duplicate headers", []Question{q("Q1?", "Scope", "a", "b"), q("Q2?", "Other", "a", "b"), q("Q3?", "Scope", "a", "b")}, []string{
			`questions[2].header: duplicate header "Scope" (also at questions[0]): answers are keyed by header, so each question needs its own`}},
		{"follow-up repeats a header", []Question{withHeaderFollowUp}, []string{
			`questions[0].followUps["OAuth"][0].header: duplicate header "Auth" (also at questions[0]): answers are keyed by header, so each question needs its own`}},
		{"empty texts", []Question{q(" ", "", "", "b")}, []string{
			"questions[0].question: String must contain at least 1 character(s)",
			"questions[0].header: String must contain at least 1 character(s)",
			"questions[0].options[0].label: String must contain at least 1 character(s)"}},
		{"long header", []Question{q("Q?", "Thirteen char", "a", "b")}, []string{"questions[0].header: String must contain at most 12 character(s)"}},
		{"long question", []Question{q(strings.Repeat("é", 501), "H", "a", "b")}, []string{"questions[0].question: String must contain at most 500 character(s)"}},
		{"follow-up key not a label", []Question{withFollow}, []string{`questions[0].followUps["Basic"]: no option with this label`}},
		{"follow-ups too deep", []Question{deep}, []string{`questions[0].followUps["a"][0].followUps["a"][0].followUps["a"][0].followUps["a"]: follow-ups may nest at most 3 levels`}},
		{"every violation listed", []Question{q("", "Far too long header", "x")}, []string{
			"questions[0].question: String must contain at least 1 character(s)",
			"questions[0].header: String must contain at most 12 character(s)",
			"questions[0].options: must have 2-4 items"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, violations(Validate(tt.qs, lim)))
		})
	}
}

func TestValidateBridgedShortensRatherThanRejectsLongHeaders(t *testing.T) {
	qs := []Question{q("Which database?", "A thirty character header here", "a", "b")}
	require.Error(t, Validate(qs, DefaultLimits()))
	assert.NoError(t, ValidateBridged(qs, DefaultLimits()))
	assert.Equal(t, []string{"questions[0].options: must have 2-4 items"}, violations(ValidateBridged([]Question{q("Q?", "Long header indeed", "a")}, DefaultLimits())))
	// A bridged agent's answers go back by index or field, not by header.
	assert.NoError(t, ValidateBridged([]Question{q("Q1?", "Same", "a", "b"), q("Q2?", "Same", "a", "b")}, DefaultLimits()))
}

func TestLimitsFromEnv(t *testing.T) {
	t.Setenv("ASK_MAX_QUESTIONS", "2")
	t.Setenv("ASK_MAX_OPTIONS", "3")
	t.Setenv("ASK_HEADER_MAX_LENGTH", "5")
	t.Setenv("ASK_QUESTION_MAX_LENGTH", "10")
	lim, err := LimitsFromEnv()
	require.NoError(t, err)
	assert.Equal(t, Limits{MaxQuestions: 2, MaxOptions: 3, HeaderMax: 5, QuestionMax: 10}, lim)
	assert.Equal(t, []string{
		"questions: must have 1-2 items",
		"questions[0].header: String must contain at most 5 character(s)",
		"questions[0].options: must have 2-3 items",
		"questions[1].question: String must contain at most 10 character(s)",
	}, violations(Validate([]Question{q("Q?", "Header", "a", "b", "c", "d"), q("A longer question?", "H", "a", "b"), q("3", "I", "a", "b")}, lim)))

	for _, name := range []string{"ASK_MAX_QUESTIONS", "ASK_MAX_OPTIONS", "ASK_HEADER_MAX_LENGTH", "ASK_QUESTION_MAX_LENGTH"} {
		t.Run(name, func(t *testing.T) {
			t.Setenv(name, "many")
			_, err := LimitsFromEnv()
			require.Error(t, err)
			assert.Contains(t, err.Error(), name)
		})
	}
	t.Setenv("ASK_MAX_OPTIONS", "1")
	_, err = LimitsFromEnv()
	assert.ErrorContains(t, err, "ASK_MAX_OPTIONS")
}

func TestReservedLabelsAreRejected(t *testing.T) {
	assert.Equal(t, []string{
		`questions[0].options[0].label: "__other__" is reserved for askbridge's own option`,
		`questions[0].options[1].label: "__done__" is reserved for askbridge's own option`,
	}, violations(ValidateBridged([]Question{q("Q?", "H", OtherID, DoneID)}, DefaultLimits())))
}

func TestSingleSelectGetsOneAnswer(t *testing.T) {
	single := q("Q?", "H", "a", "b")
	p, err := ParseOutcome(single, []byte(`{"outcome":{"outcome":"selected","optionId":"a","_meta":{"selectedOptionIds":["b","a"]}}}`))
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, p.Labels)
	_, err = ParseOutcome(single, []byte(`{"outcome":{"outcome":"selected","optionId":"a","_meta":{"selectedOptionIds":[]}}}`))
	assert.ErrorContains(t, err, "no option chosen")
	_, err = ParseOutcome(single, []byte(`{"outcome":{"outcome":"selected","optionId":"__done__"}}`))
	assert.ErrorContains(t, err, "Done is no option")
}
