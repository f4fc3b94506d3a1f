//go:build live

package live

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests run codex-acp directly with a form-capable client: they pin
// down Codex's form (elicitation/create for request_user_input) and what
// the model reads back for each answer, which is what askbridge must
// reproduce for clients without elicitation.

// The request_user_input inputs the fake model sends. Codex's questions
// carry an id, which keys the form's fields and the answers.
const (
	codexDB = `{"questions":[{"id":"db","header":"Database","question":"Which database should the service use?","options":[{"label":"Postgres","description":"relational"},{"label":"Redis","description":"in memory"}]}]}`

	codexTwo = `{"questions":[{"id":"db","header":"Database","question":"Which database should the service use?","options":[{"label":"Postgres","description":"relational"},{"label":"Redis","description":"in memory"}]},` +
		`{"id":"lang","header":"Language","question":"Which language should the service be written in?","options":[{"label":"Go","description":"fast builds"},{"label":"Rust","description":"no GC"}]}]}`

	// codexSecret asks a question whose answer must not be shown again.
	codexSecret = `{"questions":[{"id":"token","header":"Token","question":"Which deploy token should be used?","isSecret":true,"options":[{"label":"Staging","description":"the test cluster"},{"label":"Production","description":"the live cluster"}]}]}`

	// codexNoteClash has a question whose id is another's note field name.
	codexNoteClash = `{"questions":[{"id":"db","header":"Database","question":"Which database should the service use?","options":[{"label":"Postgres","description":"relational"},{"label":"Redis","description":"in memory"}]},` +
		`{"id":"db_note","header":"Backups","question":"How often should backups run?","options":[{"label":"Hourly","description":"more storage"},{"label":"Daily","description":"less storage"}]}]}`
)

// codexDBForm is the requestedSchema codex-acp 2.6.0 sends for codexDB.
const codexDBForm = `{"type":"object","properties":{
	"db":{"title":"Which database should the service use?","description":"Database","_meta":{"codex":{"isOther":true,"isSecret":false}},"type":"string","oneOf":[
		{"const":"Postgres","title":"Postgres","description":"relational"},
		{"const":"Redis","title":"Redis","description":"in memory"},
		{"const":"None of the above","title":"None of the above","description":"Provide a different answer in the note field."}]},
	"db_note":{"type":"string","title":"Additional answer or note","_meta":{"codex":{"questionId":"db","role":"user_note","isSecret":false}}}},
	"required":["db"]}`

// codexNothing is what the model reads when the user gave no answer.
const codexNothing = `{"answers":{}}`

func TestCodexDirectElicitation(t *testing.T) {
	cases := []struct {
		name   string
		call   string
		answer string
		result string // the function_call_output the model reads
	}{
		{"pick", codexDB, `{"action":"accept","content":{"db":"Redis"}}`,
			`{"answers":{"db":{"answers":["Redis"]}}}`},
		{"none of the above with a note", codexDB, `{"action":"accept","content":{"db":"None of the above","db_note":"CockroachDB"}}`,
			`{"answers":{"db":{"answers":["None of the above","user_note: CockroachDB"]}}}`},
		{"pick with a note", codexDB, `{"action":"accept","content":{"db":"Postgres","db_note":"  version 17 "}}`,
			`{"answers":{"db":{"answers":["Postgres","user_note: version 17"]}}}`},
		{"note alone", codexDB, `{"action":"accept","content":{"db_note":"CockroachDB"}}`,
			`{"answers":{"db":{"answers":["user_note: CockroachDB"]}}}`},
		{"a value outside oneOf", codexDB, `{"action":"accept","content":{"db":"MongoDB"}}`,
			`{"answers":{"db":{"answers":["MongoDB"]}}}`},
		{"accepted with nothing filled", codexDB, `{"action":"accept","content":{}}`, codexNothing},
		{"blank text", codexDB, `{"action":"accept","content":{"db":" ","db_note":""}}`, codexNothing},
		{"declined", codexDB, `{"action":"decline"}`, codexNothing},
		{"cancelled", codexDB, `{"action":"cancel"}`, codexNothing},
		{"client error", codexDB, "error", codexNothing},
		{"two questions", codexTwo, `{"action":"accept","content":{"db":"Postgres","lang":"Rust"}}`,
			`{"answers":{"db":{"answers":["Postgres"]},"lang":{"answers":["Rust"]}}}`},
		{"two questions, one answered", codexTwo, `{"action":"accept","content":{"lang":"Go"}}`,
			`{"answers":{"lang":{"answers":["Go"]}}}`},
		{"a secret", codexSecret, `{"action":"accept","content":{"token":"None of the above","token_note":"s3cr3t-t0ken"}}`,
			`{"answers":{"token":{"answers":["None of the above","user_note: s3cr3t-t0ken"]}}}`},
		{"a note field name taken by a question", codexNoteClash, `{"action":"accept","content":{"db":"Redis","db_note":"Daily","db_note1":"with AOF","db_note_note":"at 3am"}}`,
			`{"answers":{"db":{"answers":["Redis","user_note: with AOF"]},"db_note":{"answers":["Daily","user_note: at 3am"]}}}`},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			m := model(t, harness.Codex.Tool, c.call)
			el := &elicitations{answers: []string{c.answer}}
			r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Client: harness.Client{Elicit: el.answer}})
			session, stop, err := r.Turn(harness.FormElicitation, "Ask me about the service.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop, "the turn goes on whatever the answer")
			require.Len(t, el.got(), 1, "one elicitation for the whole call")
			t.Logf("elicitation/create: %s", el.got()[0])
			var p struct {
				SessionID       string          `json:"sessionId"`
				ToolCallID      string          `json:"toolCallId"`
				Mode            string          `json:"mode"`
				Message         string          `json:"message"`
				RequestedSchema json.RawMessage `json:"requestedSchema"`
				Meta            json.RawMessage `json:"_meta"`
			}
			require.NoError(t, json.Unmarshal(el.got()[0], &p))
			assert.Equal(t, session, p.SessionID)
			assert.Equal(t, "call_askbridge_0", p.ToolCallID, "the model's call_id")
			assert.Equal(t, "form", p.Mode)
			assert.Equal(t, "Codex needs your input to continue.", p.Message)
			assert.JSONEq(t, `{"codex":{"autoResolutionMs":null}}`, string(p.Meta))
			if c.call == codexDB {
				assert.JSONEq(t, codexDBForm, string(p.RequestedSchema))
			}
			assert.Empty(t, toolCallsNamed(r.Lines(), p.ToolCallID), "codex-acp announces no tool call for the question")
			require.Len(t, m.ToolResults(), 1)
			t.Logf("the model read: %s", m.ToolResults()[0])
			assert.JSONEq(t, c.result, m.ToolResults()[0])
		})
	}
}

// TestCodexDirectFormFieldNames pins the fields of the forms that are not
// codexDB's: per question a choice field named by its id, a note named
// <id>_note (then _note1... while that is taken), required the choices.
func TestCodexDirectFormFieldNames(t *testing.T) {
	for call, want := range map[string]string{
		codexTwo:       `{"db":"db","db_note":"note of db","lang":"lang","lang_note":"note of lang","required":["db","lang"]}`,
		codexNoteClash: `{"db":"db","db_note1":"note of db","db_note":"db_note","db_note_note":"note of db_note","required":["db","db_note"]}`,
		codexSecret:    `{"token":"token secret","token_note":"note of token secret","required":["token"]}`,
	} {
		m := model(t, harness.Codex.Tool, call)
		el := &elicitations{answers: []string{`{"action":"decline"}`}}
		r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Client: harness.Client{Elicit: el.answer}})
		_, _, err := r.Turn(harness.FormElicitation, "Ask me about the service.")
		require.NoError(t, err)
		require.Len(t, el.got(), 1)
		var p struct {
			RequestedSchema struct {
				Properties map[string]struct {
					OneOf []struct {
						Const string `json:"const"`
					} `json:"oneOf"`
					Meta struct {
						Codex struct {
							IsOther    bool   `json:"isOther"`
							IsSecret   bool   `json:"isSecret"`
							Role       string `json:"role"`
							QuestionID string `json:"questionId"`
						} `json:"codex"`
					} `json:"_meta"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"requestedSchema"`
		}
		require.NoError(t, json.Unmarshal(el.got()[0], &p))
		got := map[string]any{"required": p.RequestedSchema.Required}
		for name, f := range p.RequestedSchema.Properties {
			desc := name
			if f.Meta.Codex.Role == "user_note" {
				desc = "note of " + f.Meta.Codex.QuestionID
			} else {
				assert.True(t, f.Meta.Codex.IsOther, "%s: Codex always offers its own answer", name)
				assert.Equal(t, "None of the above", f.OneOf[len(f.OneOf)-1].Const, name)
			}
			if f.Meta.Codex.IsSecret {
				desc += " secret"
			}
			got[name] = desc
		}
		assert.JSONEq(t, want, mustJSON(got))
	}
}

// Without form elicitation codex-acp still offers request_user_input to the
// model, asks nobody, and the call returns no answers: the model cannot
// tell that nobody was asked.
func TestCodexDirectWithoutFormElicitation(t *testing.T) {
	for _, c := range []struct {
		name string
		caps string
		asks bool
	}{
		{"no_elicitation", harness.NoFeatures, false},
		{"empty", `{"elicitation":{}}`, false},
		{"url_only", `{"elicitation":{"url":{}}}`, false},
		// "form": true is not enough: the capability is an object.
		{"form_true", `{"elicitation":{"form":true}}`, false},
		{"form_object", harness.FormElicitation, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := model(t, harness.Codex.Tool, codexDB)
			el := &elicitations{answers: []string{`{"action":"accept","content":{"db":"Redis"}}`}}
			r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Client: harness.Client{Elicit: el.answer}})
			_, stop, err := r.Turn(c.caps, "Ask me which database.")
			require.NoError(t, err)
			assert.Equal(t, "end_turn", stop)
			assert.True(t, m.Offered(), "request_user_input is offered whatever the client can do")
			assert.Equal(t, c.asks, len(el.got()) == 1)
			require.Len(t, m.ToolResults(), 1)
			want := codexNothing
			if c.asks {
				want = `{"answers":{"db":{"answers":["Redis"]}}}`
			}
			assert.JSONEq(t, want, m.ToolResults()[0])
		})
	}
}

// session/cancel while Codex asks: codex-acp withdraws the form with
// $/cancel_request and the prompt ends cancelled without the model being
// called again.
func TestCodexDirectSessionCancelWhileAsking(t *testing.T) {
	m := model(t, harness.Codex.Tool, codexDB)
	asked := make(chan struct{}, 1)
	release := make(chan struct{})
	withdrawn := make(chan json.RawMessage, 1)
	client := harness.Client{
		Elicit: func(json.RawMessage) (any, error) {
			asked <- struct{}{}
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			}
			return json.RawMessage(`{"action":"cancel"}`), nil
		},
		Notify: func(method string, p json.RawMessage) {
			if method == "$/cancel_request" {
				withdrawn <- p
			}
		},
	}
	r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Client: client})
	defer close(release)
	_, err := r.Initialize(harness.FormElicitation)
	require.NoError(t, err)
	sess, err := r.NewSession()
	require.NoError(t, err)
	type res struct {
		stop string
		err  error
	}
	done := make(chan res, 1)
	go func() {
		s, err := r.Prompt(sess, "Ask me.")
		done <- res{s, err}
	}()
	select {
	case <-asked:
	case <-r.Ctx.Done():
		t.Fatal("never asked")
	}
	cancelled := time.Now()
	require.NoError(t, r.Cancel(sess))
	var got res
	select {
	case got = <-done:
	case <-time.After(8 * time.Second):
		t.Fatal("the prompt did not end within 8s of session/cancel")
	}
	require.NoError(t, got.err)
	t.Logf("stopReason %q %s after session/cancel; tool results %q", got.stop, time.Since(cancelled).Round(time.Millisecond), m.ToolResults())
	assert.Equal(t, "cancelled", got.stop)
	select {
	case p := <-withdrawn:
		t.Logf("$/cancel_request %s", p)
		assert.JSONEq(t, `{"requestId":0}`, string(p))
	case <-time.After(time.Second):
		t.Error("no $/cancel_request for the pending form")
	}
}

// toolCallsNamed returns the session/update lines about tool call id.
func toolCallsNamed(lines []harness.Line, id string) []json.RawMessage {
	var out []json.RawMessage
	for _, l := range lines {
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Update struct {
					ToolCallID string `json:"toolCallId"`
				} `json:"update"`
			} `json:"params"`
		}
		if l.Dir == harness.FromAgent && json.Unmarshal(l.Msg, &msg) == nil &&
			msg.Method == "session/update" && msg.Params.Update.ToolCallID == id {
			out = append(out, l.Msg)
		}
	}
	return out
}
