package permission

import (
	"encoding/json"
	"testing"
)

// The parsers of agent input must never panic, and whatever they accept
// must validate without panicking and render to valid JSON.

func FuzzDecodeAskInput(f *testing.F) {
	f.Add([]byte(`{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite"}],"multiSelect":false}]}`))
	f.Add([]byte(`{"questions":[{"question":"Auth?","header":"Auth","options":["a","b"],"followUps":{"a":[{"question":"x","header":"y","options":[]}]}}]}`))
	f.Add([]byte(`{"questions":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		qs, err := DecodeAskInput(b)
		if err != nil {
			return
		}
		checkAccepted(t, qs)
	})
}

func FuzzParseOutcome(f *testing.F) {
	f.Add([]byte(`{"outcome":{"outcome":"selected","optionId":"a","_meta":{"selectedOptionIds":["a","__other__"],"customText":"x"}}}`))
	f.Add([]byte(`{"outcome":{"outcome":"cancelled"}}`))
	question := Question{Question: "Q?", Header: "H", Options: []Option{{Label: "a"}, {Label: "b"}}, Kind: Multi}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseOutcome(question, b)
		if err != nil {
			return
		}
		for _, l := range p.Labels {
			if l != "a" && l != "b" {
				t.Fatalf("label %q is no option", l)
			}
		}
	})
}

func checkAccepted(t *testing.T, qs []Question) {
	Validate(qs, DefaultLimits())
	ValidateBridged(qs, DefaultLimits())
	for i, q := range qs {
		if !json.Valid(Render(Prompt{SessionID: "s", ToolCallID: "t", Q: q, Index: i, Total: len(qs), Round: 2})) {
			t.Fatal("Render produced invalid JSON")
		}
	}
}
