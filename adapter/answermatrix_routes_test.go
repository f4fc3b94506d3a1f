//go:build unix

package adapter

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/prompt"
)

// matrixRoute is one way a person answers.
type matrixRoute struct {
	name   string
	forms  bool   // the client renders forms
	render Render // how questions reach the client
	setup  func(t *testing.T, c *cell)
	answer func(t *testing.T, c *cell, k kind)
	// cannot says why the route cannot give k to d ("" if it can); check
	// shows it: the route offers no such thing.
	cannot func(d matrixDialect, k kind) string
	check  func(t *testing.T, d matrixDialect, k kind)
}

func matrixRoutes() []matrixRoute {
	return []matrixRoute{editorRoute(), yesNoRoute(), formRoute(), ttyRoute(),
		deskRoute(), hubRoute(), inboxRoute(), tapRoute()}
}

func canAll(matrixDialect, kind) string { return "" }

// editorRoute: the editor's permission requests, answered with every pick
// at once (_meta.selectedOptionIds) and the typed text (_meta.customText).
func editorRoute() matrixRoute {
	return matrixRoute{name: "editor", answer: func(t *testing.T, c *cell, k kind) {
		if k.timeout {
			return
		}
		for i, w := range k.answers {
			req, _ := c.h.NextRequest(t, "session/request_permission")
			c.h.Answer(t, req, editorResponse(w, k.asked()[i].Kind.Many))
		}
		if k.dismiss {
			req, _ := c.h.NextRequest(t, "session/request_permission")
			c.h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
		}
	}, cannot: canAll}
}

func editorResponse(w want, multi bool) string {
	ids := append([]string(nil), w.Labels...)
	if w.Other {
		ids = append(ids, permission.OtherID)
	}
	meta := map[string]any{}
	if multi {
		meta["selectedOptionIds"] = ids
	}
	if w.Typed != "" {
		meta["customText"] = w.Typed
	}
	b, _ := json.Marshal(map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": ids[0], "_meta": meta}})
	return string(b)
}

// yesNoRoute: a client that can only say yes or no (acpx), asked a walk.
func yesNoRoute() matrixRoute {
	return matrixRoute{name: "yes-no walk", render: RenderYesNo, answer: answerYesNo,
		cannot: func(_ matrixDialect, k kind) string {
			for _, w := range k.answers {
				if w.Typed != "" {
					return "a yes/no client has no text field: its Other is the chat step, with no text"
				}
			}
			return ""
		},
		check: func(t *testing.T, d matrixDialect, k kind) {
			c := newCell(t, d, yesNoRoute(), k)
			c.ask(t, k)
			req, _ := c.h.NextRequest(t, "session/request_permission")
			assert.Contains(t, string(req.Params), `"options":[{"kind":"allow_once","name":"Yes","optionId":"yes"},{"kind":"reject_once","name":"No","optionId":"no"}]`, "yes and no only")
			c.h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
		}}
}

func answerYesNo(t *testing.T, c *cell, k kind) {
	if k.timeout {
		return
	}
	if k.dismiss {
		req, _ := c.h.NextRequest(t, "session/request_permission")
		c.h.Answer(t, req, `{"outcome":{"outcome":"cancelled"}}`)
		return
	}
	yn := func(yes bool) string {
		return pick(map[bool]string{true: permission.YesID, false: permission.NoID}[yes])
	}
	for i, w := range k.answers {
		q := k.asked()[i]
		picked := false
		for _, o := range q.Options {
			req, _ := c.h.NextRequest(t, "session/request_permission")
			yes := slices.Contains(w.Labels, o.Label)
			c.h.Answer(t, req, yn(yes))
			picked = picked || yes
			if yes && !q.Kind.Many {
				break
			}
		}
		if !picked && !c.d.noOther {
			req, _ := c.h.NextRequest(t, "session/request_permission")
			require.Contains(t, string(req.Params), permission.ChatStep)
			c.h.Answer(t, req, yn(w.Other))
		}
	}
}

// formRoute: a client that renders forms. A form agent's form reaches it
// as the agent sent it; a set askbridge may show as a form (Qwen's) comes
// as askbridge's own form. The client fills the choice field and its
// free-text companion.
func formRoute() matrixRoute {
	return matrixRoute{name: "form", forms: true, answer: answerForm,
		cannot: func(d matrixDialect, k kind) string {
			switch {
			case !d.form && !d.asForm:
				return d.name + " is asked with permission requests, forms or not"
			case slices.ContainsFunc(k.answers, func(w want) bool { return w.Other && w.Typed == "" }):
				return "a form has no Other button: what is typed, or nothing"
			}
			return ""
		},
		check: func(t *testing.T, d matrixDialect, k kind) {
			c := newCell(t, d, formRoute(), k)
			c.ask(t, k)
			m := c.h.nextClientRequest(t)
			if !d.form && !d.asForm {
				assert.Equal(t, "session/request_permission", m.Method, "no form for %s", d.name)
				c.h.Answer(t, m, `{"outcome":{"outcome":"cancelled"}}`)
				return
			}
			require.Equal(t, "elicitation/create", m.Method)
			assert.NotContains(t, string(m.Params), permission.OtherID, "a form offers no Other to pick")
			c.h.Answer(t, m, `{"action":"cancel"}`)
		}}
}

// nextClientRequest is the next request the client is sent.
func (h *bridgeHarness) nextClientRequest(t *testing.T) rpc {
	t.Helper()
	for {
		m := decode(t, h.Client.Recv())
		if m.ID != nil && m.Method != "" {
			return m
		}
	}
}

func answerForm(t *testing.T, c *cell, k kind) {
	if k.timeout {
		return
	}
	m := c.h.nextClientRequest(t)
	require.Equal(t, "elicitation/create", m.Method)
	if k.dismiss {
		c.h.Answer(t, m, `{"action":"cancel"}`)
		return
	}
	var p struct {
		RequestedSchema struct {
			Properties json.RawMessage `json:"properties"`
		} `json:"requestedSchema"`
	}
	require.NoError(t, json.Unmarshal(m.Params, &p))
	var names []string
	dec := json.NewDecoder(strings.NewReader(string(p.RequestedSchema.Properties)))
	var props map[string]map[string]any
	require.NoError(t, json.Unmarshal(p.RequestedSchema.Properties, &props))
	dec.Token()
	for dec.More() {
		tok, _ := dec.Token()
		names = append(names, tok.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	choice, note := names[0], ""
	for _, n := range names[1:] {
		if strings.HasPrefix(n, choice) {
			note = n
		}
	}
	w := k.answers[0]
	content := map[string]any{}
	switch {
	case props[choice]["type"] == "array":
		content[choice] = w.Labels
	case len(w.Labels) > 0:
		content[choice] = w.Labels[0]
	case strings.Contains(string(m.Params), `"None of the above"`):
		content[choice] = "None of the above" // Codex's choice for "the note is my answer"
	}
	if w.Typed != "" {
		require.NotEmpty(t, note, "a free-text field beside %s", choice)
		content[note] = w.Typed
	}
	b, _ := json.Marshal(map[string]any{"action": "accept", "content": content})
	c.h.Answer(t, m, string(b))
}

// ttyRoute: askbridge's own terminal prompter (`askbridge ask` without an
// editor, the demo's client) answering the permission requests, with
// its plain numbered prompts: "2", "1,2", "0" then a line of text. The
// TTY prompter (huh's forms) gives the same Reply to the same
// prompt.Answer; it is driven in a real terminal by
// cmd/askbridge/tty_test.go.
func ttyRoute() matrixRoute {
	return matrixRoute{name: "terminal prompter", answer: answerTTY,
		cannot: func(_ matrixDialect, k kind) string {
			if slices.ContainsFunc(k.answers, func(w want) bool { return w.Other && w.Typed == "" }) {
				return "the terminal prompter asks for the text after 0 and refuses an empty one"
			}
			return ""
		},
		check: func(t *testing.T, _ matrixDialect, _ kind) {
			var out strings.Builder
			p := prompt.NewPlain(strings.NewReader(strings.Repeat("0\n\n", 2*prompt.MaxTries)), &out)
			reply, _ := p.Prompt(context.Background(), prompt.Request{Title: "Database", Text: qDatabase.Question,
				Choices: []prompt.Choice{{ID: "Postgres", Name: "Postgres"}, {ID: permission.OtherID, Name: "Other"}}})
			assert.Contains(t, out.String(), "the custom answer is empty")
			assert.NotContains(t, reply.IDs, permission.OtherID, "Other is never answered without text")
		}}
}

func answerTTY(t *testing.T, c *cell, k kind) {
	if k.timeout {
		return
	}
	var lines []string
	for i, w := range k.answers {
		var nums []string
		for j, o := range k.asked()[i].Options {
			if slices.Contains(w.Labels, o.Label) {
				nums = append(nums, fmt.Sprint(j+1))
			}
		}
		if w.Other {
			nums = append(nums, "0")
		}
		lines = append(lines, strings.Join(nums, ","))
		if w.Typed != "" {
			lines = append(lines, w.Typed)
		}
	}
	var out strings.Builder
	p := prompt.NewPlain(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out)
	n := max(len(k.answers), 1) // a dismissal: the input ends, which cancels
	for range n {
		req, _ := c.h.NextRequest(t, "session/request_permission")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		resp, err := prompt.AnswerRaw(ctx, p, req.Params)
		cancel()
		require.NoError(t, err, out.String())
		c.h.Answer(t, req, string(resp))
	}
}
