package claude

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/permission"
)

// FuzzParseForm: an agent's elicitation schema never panics the bridge, and
// whatever it accepts can be answered.
func FuzzParseForm(f *testing.F) {
	f.Add("Which database?", []byte(`{"type":"object","properties":{"question_0":{"type":"string","title":"Database","oneOf":[{"const":"Postgres","title":"Postgres"}]},"question_0_custom":{"type":"string"}}}`))
	f.Add("", []byte(`{"type":"object","properties":{"a":{"type":"array","items":{"enum":["x",1,true]}},"b":{"type":"boolean"},"c":{"type":"integer"}},"required":["c"]}`))
	f.Fuzz(func(t *testing.T, message string, schema []byte) {
		form, err := dialect.ParseForm(message, schema, claudeCompanion)
		if err != nil {
			return
		}
		var res permission.Result
		for i, q := range form.Questions {
			a := permission.Answer{Other: true, Custom: "7"}
			if len(q.Options) > 0 {
				a.Labels = []string{q.Options[0].Label}
			}
			res.Answers = append(res.Answers, permission.Answered{Question: q, Answer: a, Index: i})
		}
		form.Missing(form.Content(res))
	})
}
