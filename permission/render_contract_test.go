package permission

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These pin Render to "The contract" in design.md, whole JSON values, so
// that any drift in a field a client reads shows up here.

func TestRenderSingleSelectIsTheContract(t *testing.T) {
	qq := Question{Question: "Which database?", Header: "Database",
		Options: []Option{{"Postgres", "relational"}, {"SQLite", ""}}}
	got := Render(Prompt{SessionID: "s1", ToolCallID: "call_1", Q: qq, Index: 1, Total: 3, Round: 1})
	assert.JSONEq(t, `{
		"sessionId": "s1",
		"toolCall": {
			"toolCallId": "call_1",
			"kind": "think",
			"title": "Database (2/3)",
			"content": [{"type":"content","content":{"type":"text","text":"Which database?\n  - Postgres: relational\n  - SQLite"}}]
		},
		"options": [
			{"kind":"allow_once","name":"Postgres - relational","optionId":"Postgres"},
			{"kind":"allow_once","name":"SQLite","optionId":"SQLite"},
			{"kind":"allow_once","name":"Other (type custom answer)","optionId":"__other__"}
		],
		"_meta": {
			"askUserQuestion": {"multiSelect":false,"index":1,"total":3,"round":1},
			"claudeCode": {"questionType":"askUserQuestion","multiSelect":false}
		}
	}`, string(got))
}

func TestRenderMultiSelectReaskShowsPicksAndDone(t *testing.T) {
	qq := Question{Question: "Which languages?", Header: "Languages", Kind: Multi,
		Options: []Option{{"Go", "fast builds"}, {"Rust", "no GC"}, {"C", ""}}}
	got := Render(Prompt{SessionID: "s1", ToolCallID: "call_1", Q: qq, Index: 0, Total: 1, Round: 2, Picked: []string{"Go", "C"}})
	assert.JSONEq(t, `{
		"sessionId": "s1",
		"toolCall": {
			"toolCallId": "call_1",
			"kind": "think",
			"title": "Round 2 · Languages",
			"content": [{"type":"content","content":{"type":"text","text":"Which languages?\n  - Rust: no GC\n\nPicked so far: Go, C. Pick another, or Done."}}]
		},
		"options": [
			{"kind":"allow_once","name":"Rust - no GC","optionId":"Rust"},
			{"kind":"allow_once","name":"Other (type custom answer)","optionId":"__other__"},
			{"kind":"allow_once","name":"Done","optionId":"__done__"}
		],
		"_meta": {
			"askUserQuestion": {"multiSelect":true,"index":0,"total":1,"round":2},
			"claudeCode": {"questionType":"askUserQuestion","multiSelect":true}
		}
	}`, string(got))
}

// Every option Render offers must read back, through ParseOutcome, as what
// the button said.
func TestEveryRenderedOptionParsesBack(t *testing.T) {
	qq := Question{Question: "Which languages?", Header: "Languages", Kind: Multi,
		Options: []Option{{"Go", ""}, {"Rust (Recommended)", "safe"}, {"C, or C++", ""}, {"日本語", ""}}}
	for _, picked := range [][]string{nil, {"Go"}} {
		var params struct {
			Options []struct {
				OptionID string `json:"optionId"`
			} `json:"options"`
		}
		require.NoError(t, json.Unmarshal(Render(Prompt{Q: qq, Picked: picked}), &params))
		for _, o := range params.Options {
			resp, _ := json.Marshal(map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": o.OptionID}})
			pk, err := ParseOutcome(qq, resp)
			require.NoError(t, err, o.OptionID)
			switch o.OptionID {
			case OtherID:
				assert.Equal(t, Pick{Other: true}, pk)
			case DoneID:
				assert.Equal(t, Pick{Done: true}, pk)
			default:
				assert.Equal(t, Pick{Labels: []string{o.OptionID}}, pk)
			}
		}
	}
}

func TestParseOutcomeShapes(t *testing.T) {
	qq := Question{Question: "Which languages?", Header: "Languages", Kind: Multi,
		Options: []Option{{"Go", ""}, {"Rust", ""}, {"Python", ""}}}
	tests := []struct {
		name, resp string
		want       Pick
		err        string
	}{
		{"one pick", `{"outcome":{"outcome":"selected","optionId":"Rust"}}`, Pick{Labels: []string{"Rust"}}, ""},
		{"all picks, option order", `{"outcome":{"outcome":"selected","optionId":"Python","_meta":{"selectedOptionIds":["Python","Go"]}}}`, Pick{Labels: []string{"Go", "Python"}, All: true}, ""},
		{"picks and typed text", `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","__other__"],"customText":"Zig"}}}`, Pick{Labels: []string{"Go"}, Other: true, Custom: "Zig", All: true}, ""},
		{"typed text on the result's _meta", `{"outcome":{"outcome":"selected","optionId":"__other__"},"_meta":{"customText":"Zig"}}`, Pick{Other: true, Custom: "Zig"}, ""},
		{"Other without text", `{"outcome":{"outcome":"selected","optionId":"__other__"}}`, Pick{Other: true}, ""},
		{"typed text without Other is ignored", `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"customText":"Zig"}}}`, Pick{Labels: []string{"Go"}}, ""},
		{"cancelled", `{"outcome":{"outcome":"cancelled"}}`, Pick{Cancelled: true}, ""},
		{"unknown option", `{"outcome":{"outcome":"selected","optionId":"Zig"}}`, Pick{}, `permission response: optionId "Zig" is not an option of "Which languages?"`},
		{"unknown outcome", `{"outcome":{"outcome":"maybe"}}`, Pick{}, `permission response: unknown outcome "maybe"`},
		{"no outcome", `{}`, Pick{}, `permission response: unknown outcome ""`},
		{"not JSON", `{`, Pick{}, "permission response: unexpected end of JSON input"},
		{"ids of the wrong type", `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":"Go"}}}`, Pick{}, "permission response:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pk, err := ParseOutcome(qq, json.RawMessage(tt.resp))
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, pk)
		})
	}
}
