package codex_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/adaptertest"
	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/codex/codextest"
	"github.com/askbridge/askbridge/permission"
)

// Codex's lines (codextest), and a form of two questions.
var (
	codexForm, codexQuestion = codextest.Form, codextest.Question
	codexDB, codexPass       = codextest.DB, codextest.Pass
	codexTwo                 = codexForm("null", codexQuestion("db", "db_note", "Database", "Which database?", false, "Postgres", "Redis")+","+codexQuestion("lang", "lang_note", "Language", "Which language?", false, "Go", "Rust"), `"db","lang"`)
)

// codexAsk starts a bridge, sends form, and returns the first permission
// request and the lines the client saw before it.
func codexAsk(t *testing.T, form string) (*adaptertest.Harness, adaptertest.Msg, []adaptertest.Msg) {
	t.Helper()
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(form)
	req, notes := h.NextRequest(t, "session/request_permission")
	return h, req, notes
}

func TestCodexAsksEachQuestionWithoutTheSyntheticChoice(t *testing.T) {
	h, req, notes := codexAsk(t, codexDB)
	p, ids := adaptertest.ReadPermission(t, req)
	assert.Equal(t, []string{"Postgres", "Redis", "__other__"}, ids, "Other stands for None of the above")
	assert.Equal(t, "Database", p.ToolCall.Title, "the header, from the field's description")
	assert.Equal(t, "call_1", p.ToolCall.ToolCallID)
	assert.Contains(t, string(req.Params), "Which database?", "the question, from the field's title")
	assert.NotContains(t, string(req.Params), "Codex needs your input", "codex-acp's message says nothing")

	// codex-acp never announced call_1: the first the client hears of it
	// starts it.
	require.NotEmpty(t, notes)
	assert.Contains(t, string(notes[0].Params), `"sessionUpdate":"tool_call"`)
	assert.Contains(t, string(notes[0].Params), `"toolCallId":"call_1"`)

	h.Answer(t, req, adaptertest.Pick("Redis"))
	assert.JSONEq(t, `{"action":"accept","content":{"db":"Redis"}}`, string(h.AgentReply(t, "0").Result))
	done := h.ToolCallUpdates(t, "call_1", "completed")
	assert.Contains(t, done[len(done)-1], "Database: Redis", "askbridge completes the call it started")
}

func TestCodexOtherIsNoneOfTheAboveWithTheNote(t *testing.T) {
	for _, c := range []struct {
		name, answer, content string
	}{
		{"typed text", `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"CockroachDB"}}}`,
			`{"db":"None of the above","db_note":"CockroachDB"}`},
		{"no text", adaptertest.Pick("__other__"),
			mustJSONString(map[string]string{"db": "None of the above", "db_note": permission.OtherWithoutText})},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			h, req, _ := codexAsk(t, codexDB)
			h.Answer(t, req, c.answer)
			assert.JSONEq(t, `{"action":"accept","content":`+c.content+`}`, string(h.AgentReply(t, "0").Result))
		})
	}
}

func TestCodexTwoQuestionsOneRequestEach(t *testing.T) {
	h, req, _ := codexAsk(t, codexTwo)
	p, _ := adaptertest.ReadPermission(t, req)
	assert.Equal(t, "Database (1/2)", p.ToolCall.Title)
	h.Answer(t, req, adaptertest.Pick("Postgres"))
	req, _ = h.NextRequest(t, "session/request_permission")
	p, ids := adaptertest.ReadPermission(t, req)
	assert.Equal(t, "Language (2/2)", p.ToolCall.Title, "the note is no question of its own")
	assert.Equal(t, []string{"Go", "Rust", "__other__"}, ids)
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"Zig"}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"db":"Postgres","lang":"None of the above","lang_note":"Zig"}}`, string(h.AgentReply(t, "0").Result))
}

func TestCodexCancelShowsNoMoreAndCancels(t *testing.T) {
	h, req, _ := codexAsk(t, codexTwo)
	h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "0").Result))
	failed := h.ToolCallUpdates(t, "call_1", "failed")
	assert.Contains(t, failed[len(failed)-1], "Not answered.")
}

func TestCodexSecretIsNotEchoed(t *testing.T) {
	h, req, _ := codexAsk(t, codexPass)
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"s3cr3t"}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"token":"None of the above","token_note":"s3cr3t"}}`, string(h.AgentReply(t, "0").Result),
		"the agent gets the secret")
	done := h.ToolCallUpdates(t, "call_1", "completed")
	for _, line := range done {
		assert.NotContains(t, line, "s3cr3t")
	}
	assert.Contains(t, done[len(done)-1], "Token: "+permission.SecretAnswer)
}

// When codex-acp stops waiting (its autoResolutionMs passed, or the turn
// ended) it withdraws the form; askbridge withdraws the question it shows.
func TestCodexWithdrawnFormIsWithdrawnAtTheClient(t *testing.T) {
	h, req, _ := codexAsk(t, codexForm("200", codexQuestion("db", "db_note", "Database", "Which database?", false, "Postgres", "Redis"), `"db"`))
	h.Agent.Send(`{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":0}}`)
	assert.JSONEq(t, `{"action":"cancel"}`, string(h.AgentReply(t, "0").Result))
	for {
		m := adaptertest.Decode(t, h.Client.Recv())
		if m.Method == "$/cancel_request" {
			assert.JSONEq(t, fmt.Sprintf(`{"requestId":%s}`, req.ID), string(m.Params))
			break
		}
	}
}

// A question whose id is another's note name: codex-acp then names the
// note <id>_note1, and _meta.codex.questionId says whose it is.
func TestCodexNoteNamesComeFromTheMetaNotTheName(t *testing.T) {
	form := codexForm("null", codexQuestion("db", "db_note1", "Database", "Which database?", false, "Postgres", "Redis")+","+
		codexQuestion("db_note", "db_note_note", "Backups", "How often?", false, "Hourly", "Daily"), `"db","db_note"`)
	h, req, _ := codexAsk(t, form)
	p, _ := adaptertest.ReadPermission(t, req)
	assert.Equal(t, "Database (1/2)", p.ToolCall.Title)
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"with AOF"}}}`)
	req, _ = h.NextRequest(t, "session/request_permission")
	p, _ = adaptertest.ReadPermission(t, req)
	assert.Equal(t, "Backups (2/2)", p.ToolCall.Title)
	h.Answer(t, req, adaptertest.Pick("Daily"))
	assert.JSONEq(t, `{"action":"accept","content":{"db":"None of the above","db_note1":"with AOF","db_note":"Daily"}}`, string(h.AgentReply(t, "0").Result))
}

// A "None of the above" the model offered itself is one of its options:
// codex-acp then adds none, and it stays.
func TestCodexTheModelsOwnNoneOfTheAboveStays(t *testing.T) {
	form := codexForm("null", `"db":{"title":"Which database?","description":"Database","_meta":{"codex":{"isOther":true,"isSecret":false}},"type":"string","oneOf":[`+
		`{"const":"Postgres","title":"Postgres"},{"const":"None of the above","title":"None of the above","description":"keep files"}]},`+
		`"db_note":{"type":"string","title":"Additional answer or note","_meta":{"codex":{"questionId":"db","role":"user_note","isSecret":false}}}`, `"db"`)
	h, req, _ := codexAsk(t, form)
	_, ids := adaptertest.ReadPermission(t, req)
	assert.Equal(t, []string{"Postgres", "None of the above", "__other__"}, ids)
	h.Answer(t, req, adaptertest.Pick("None of the above"))
	assert.JSONEq(t, `{"action":"accept","content":{"db":"None of the above"}}`, string(h.AgentReply(t, "0").Result))
}

func TestCodexFormPassesThroughToAClientThatRendersForms(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.Client.Send(`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"elicitation":{"form":{}}}}}`)
	h.Agent.Recv()
	h.Agent.Send(codexDB)
	assert.Equal(t, codexDB, h.Client.Recv(), "Codex's form, byte for byte")
}

// A form without _meta.codex is not Codex's: the generic dialect takes it.
func TestCodexLeavesOtherFormsToTheElicitationDialect(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true})
	h.OpenSession(t, "s1")
	h.Agent.Send(claudeSingle)
	req, _ := h.NextRequest(t, "session/request_permission")
	h.Answer(t, req, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"MariaDB"}}}`)
	assert.JSONEq(t, `{"action":"accept","content":{"question_0_custom":"MariaDB"}}`, string(h.AgentReply(t, "41").Result))
}

func mustJSONString(v any) string { return string(dialect.MustJSON(v)) }

// A timeout gives Codex's model words, not the empty answers a decline
// becomes: "None of the above" with a note saying nobody answered in time.
func TestCodexTimeoutSaysSoInTheNote(t *testing.T) {
	h := adaptertest.New(t, adapter.Options{Advertise: true, QuestionTimeout: 150 * time.Millisecond})
	h.OpenSession(t, "s1")
	h.Agent.Send(codexDB)
	h.NextRequest(t, "session/request_permission")
	assert.JSONEq(t, `{"action":"accept","content":{"db":"None of the above","db_note":"`+permission.NoAnswerInTime+`"}}`, string(h.AgentReply(t, "0").Result))
}

// claudeSingle is Claude's form elicitation of one question: no _meta.codex.
const claudeSingle = `{"jsonrpc":"2.0","id":41,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","toolCallId":"toolu_1","message":"Which database?","requestedSchema":{"type":"object","properties":{"question_0":{"type":"string","title":"Database","oneOf":[{"const":"Postgres","title":"Postgres","description":"relational"},{"const":"SQLite","title":"SQLite","description":"embedded"}]},"question_0_custom":{"type":"string","title":"Other","description":"Type your own answer (optional)."}}}}}`
