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

// matrixDialect is how one agent asks, and how it reads askbridge's reply.
type matrixDialect struct {
	name      string
	joined    bool // the agent reads one string per question (Answer.Text)
	multi     bool // it can ask a multi-select
	followUps bool // it can ask follow-up questions
	noOther   bool // its questions take no typed text
	form      bool // it asks with a form a form-rendering client renders itself
	asForm    bool // askbridge shows its set as a form of its own to such a client
	// joinedTyped: the agent reads a typed answer as one string of words,
	// and picks alone as a list.
	joinedTyped bool
	ask         func(k kind) string // the agent's request, id "mx"
	decode      func(t *testing.T, result json.RawMessage, k kind) heard
	// Optional: options sets the dialect up in the bridge's options; send
	// asks instead of sending ask's line; preface answers the client
	// before the route does (a method it does not know); receive is the
	// agent's answer where it is no reply to "mx".
	options func(t *testing.T, c *cell, opts *Options)
	socket  bool // the bridge listens on its ask socket
	send    func(t *testing.T, c *cell, k kind)
	preface func(t *testing.T, c *cell)
	receive func(t *testing.T, c *cell) json.RawMessage
}

func matrixDialects() []matrixDialect {
	return []matrixDialect{
		{name: "claude", multi: true, form: true, ask: claudeAsk, decode: claudeHeard},
		{name: "codex", form: true, ask: codexAskLine, decode: codexHeard},
		{name: "kimi", multi: true, noOther: true, form: true, ask: kimiAsk, decode: kimiHeard},
		{name: "qwen", joined: true, multi: true, asForm: true, ask: qwenAskLine, decode: qwenHeard},
		{name: "askbridge-ask-sdk", joined: true, multi: true, followUps: true, ask: sdkAsk(""), decode: sdkHeard},
		{name: "askbridge-ask-cli", multi: true, followUps: true, ask: sdkAsk("cli"), decode: cliHeard},
	}
}

func allMatrixDialects() []matrixDialect {
	return append(append(matrixDialects(), extDialects()...), hostedDialects()...)
}

func answered() heard { return heard{state: permission.StateAnswered, answers: map[string][]string{}} }

// formChoices is a schema's oneOf or anyOf list for q.
func formChoices(q permission.Question) string {
	var opts []string
	for _, o := range q.Options {
		opts = append(opts, fmt.Sprintf(`{"const":%q,"title":%q,"description":%q}`, o.Label, o.Label, o.Description))
	}
	return strings.Join(opts, ",")
}

// claudeAsk is claude-agent-acp 0.101.0's form for one question
// (askUserQuestionsToCreateRequest): question_0 and question_0_custom.
func claudeAsk(k kind) string {
	q := k.question()
	field := fmt.Sprintf(`{"type":"string","title":%q,"oneOf":[%s]}`, q.Header, formChoices(q))
	hint := "Type your own answer, or add a note to the option you chose above (optional)."
	if q.Kind.Many {
		field = fmt.Sprintf(`{"type":"array","title":%q,"items":{"anyOf":[%s]}}`, q.Header, formChoices(q))
		hint = "Type your own answer to add to your selection above (optional)."
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"elicitation/create","params":{"mode":"form","sessionId":"s1","toolCallId":"toolu_mx","message":%q,"requestedSchema":{"type":"object","properties":{"question_0":%s,"question_0_custom":{"type":"string","title":"Other","description":%q}}}}}`,
		q.Question, field, hint)
}

// elicitResult is an elicitation/create result.
type elicitResult struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content"`
}

func readElicit(t *testing.T, result json.RawMessage) elicitResult {
	t.Helper()
	var r elicitResult
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	return r
}

// elicitState is how a form's action ends the set for the agent: askbridge
// declines a set nobody answered in time (Claude reads "the user did not
// answer" and goes on) and cancels a dismissed one.
func elicitState(action string) permission.State {
	switch action {
	case "accept":
		return permission.StateAnswered
	case "decline":
		return permission.StateTimeout
	}
	return permission.StateCancelled
}

// claudeHeard reads the content as claude-agent-acp does
// (applyAskElicitationResponse): a multi-select's picks with the typed
// text added, joined by the CLI's rule and split back by the tool the same
// way; a single-select's pick, or the typed text when nothing was picked.
func claudeHeard(t *testing.T, result json.RawMessage, k kind) heard {
	r := readElicit(t, result)
	h := heard{state: elicitState(r.Action)}
	if r.Action != "accept" {
		return h
	}
	h.answers = map[string][]string{}
	custom, _ := r.Content["question_0_custom"].(string)
	custom = strings.TrimSpace(custom)
	var picks []string
	switch v := r.Content["question_0"].(type) {
	case string:
		picks = []string{v}
	case []any:
		for _, p := range v {
			picks = append(picks, fmt.Sprint(p))
		}
	}
	q := k.question().Question
	if k.question().Kind.Many {
		if custom != "" {
			picks = append(picks, custom)
		}
		h.answers[q] = splitClaude(t, joinClaude(picks))
		return h
	}
	switch {
	case len(picks) == 0 && custom != "":
		h.answers[q] = []string{custom}
	case custom != "":
		h.answers[q] = append(picks, "notes: "+custom)
	default:
		h.answers[q] = picks
	}
	return h
}

// joinClaude is claude-agent-acp's joinMultiSelectAnswer: ", " between
// items, an item with ", " or a quote JSON-quoted.
func joinClaude(items []string) string {
	var out []string
	for _, it := range items {
		if strings.Contains(it, ", ") || strings.Contains(it, `"`) {
			b, _ := json.Marshal(it)
			it = string(b)
		}
		out = append(out, it)
	}
	return strings.Join(out, ", ")
}

// splitClaude splits a joined answer back into its items, as the tool's
// call() does.
func splitClaude(t *testing.T, s string) []string {
	var out []string
	for s != "" {
		if s[0] == '"' {
			dec := json.NewDecoder(strings.NewReader(s))
			var it string
			require.NoError(t, dec.Decode(&it), s)
			out = append(out, it)
			s = strings.TrimPrefix(s[dec.InputOffset():], ", ")
			continue
		}
		it, rest, _ := strings.Cut(s, ", ")
		out = append(out, it)
		s = rest
	}
	return out
}

// codexAskLine is codex-acp 2.6.0's request_user_input form: a choice per
// question id ending in its own "None of the above", and <id>_note.
func codexAskLine(k kind) string {
	q := k.question()
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"elicitation/create","params":{"mode":"form","sessionId":"s1","message":"Codex needs your input to continue.","requestedSchema":{"type":"object","properties":{`+
		`"db":{"title":%q,"description":%q,"_meta":{"codex":{"isOther":true,"isSecret":false}},"type":"string","oneOf":[%s,{"const":"None of the above","title":"None of the above","description":"Provide a different answer in the note field."}]},`+
		`"db_note":{"type":"string","title":"Additional answer or note","_meta":{"codex":{"questionId":"db","role":"user_note","isSecret":false}}}},"required":["db"]}}}`,
		q.Question, q.Header, formChoices(q))
}

// codexHeard reads the content as codex-acp hands it to the model: the
// question's answers list, the choice ("None of the above" says the note
// is the answer) then "user_note: <note>". A set nobody answered in time
// has every note say so.
func codexHeard(t *testing.T, result json.RawMessage, k kind) heard {
	r := readElicit(t, result)
	h := heard{state: elicitState(r.Action)}
	if r.Action != "accept" {
		return h
	}
	h.answers = map[string][]string{}
	var items []string
	if c, ok := r.Content["db"].(string); ok && c != "None of the above" {
		items = append(items, c)
	}
	if n, ok := r.Content["db_note"].(string); ok && n != "" {
		if n == permission.NoAnswerInTime {
			return heard{state: permission.StateTimeout}
		}
		items = append(items, n)
	}
	h.answers[k.question().Question] = items
	return h
}

// kimiAsk is Kimi Code 2.1.0's form: one field per question, required,
// with no free-text companion.
func kimiAsk(k kind) string {
	q := k.question()
	field := fmt.Sprintf(`{"type":"string","title":%q,"oneOf":[%s]}`, q.Header, formChoices(q))
	if q.Kind.Many {
		field = fmt.Sprintf(`{"type":"array","title":%q,"minItems":1,"items":{"anyOf":[%s]}}`, q.Header, formChoices(q))
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"elicitation/create","params":{"sessionId":"s1","toolCallId":"call_mx","mode":"form","message":%q,"requestedSchema":{"type":"object","properties":{"q0":%s},"required":["q0"]}}}`,
		q.Question, field)
}

// kimiHeard reads the content's values; anything but accept is no answer.
func kimiHeard(t *testing.T, result json.RawMessage, k kind) heard {
	r := readElicit(t, result)
	h := heard{state: elicitState(r.Action)}
	if r.Action != "accept" {
		return h
	}
	h.answers = map[string][]string{}
	var items []string
	switch v := r.Content["q0"].(type) {
	case string:
		items = []string{v}
	case []any:
		for _, p := range v {
			items = append(items, fmt.Sprint(p))
		}
	}
	h.answers[k.question().Question] = items
	return h
}

// qwenAskLine is Qwen Code 0.24's ask_user_question permission request.
func qwenAskLine(k kind) string {
	qs, _ := json.Marshal([]permission.Question{k.question()})
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"mx","method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"proceed_once","name":"Submit","kind":"allow_once"},{"optionId":"cancel","name":"Cancel","kind":"reject_once"}],"toolCall":{"toolCallId":"call_mx","title":"ask_user_question","kind":"other","rawInput":{"questions":%s}}}}`, qs)
}

// qwenHeard reads `answers` by index, as Qwen does; its words for a set
// nobody answered in time are NoAnswerInTime.
func qwenHeard(t *testing.T, result json.RawMessage, k kind) heard {
	var r struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
		Answers map[string]string `json:"answers"`
	}
	require.NoError(t, json.Unmarshal(result, &r), string(result))
	if r.Outcome.Outcome != "selected" || r.Outcome.OptionID != "proceed_once" {
		return heard{state: permission.StateCancelled}
	}
	if r.Answers["0"] == permission.NoAnswerInTime {
		return heard{state: permission.StateTimeout}
	}
	h := answered()
	h.answers[k.question().Question] = []string{r.Answers["0"]}
	return h
}
