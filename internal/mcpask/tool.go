package mcpask

import (
	"fmt"

	"github.com/askbridge/askbridge/permission"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolName is the tool's name; Gemini CLI offers it to its model as
// mcp_askbridge_ask_user_question.
const ToolName = "ask_user_question"

// description tells a model when a question beats a guess, and when it
// does not: a tool that is used for everything trains the user to ignore it.
const description = `Ask the user one or more multiple-choice questions in their editor and wait for the answers.

Ask instead of guessing when:
- a requirement is ambiguous and the readings lead to different work;
- there is a choice between real alternatives the user cares about (a library, a data model, an API shape, a trade-off of cost, speed or scope);
- you are about to take an irreversible or costly step (deleting or migrating data, publishing, spending money) and the user has not already said to go ahead.

Do not ask when the answer is in the code, the docs or the conversation; when one option is clearly right or the project's convention settles it; to confirm a routine step; or for permission to do what the user already asked. Decide those yourself and say what you chose.

Ask everything you need in one call: %d question(s) at most, each with %d-%d options. Give each option a short label (1-5 words) and a description of what it means or costs. Put the option you recommend first and end its label with " (Recommended)". The user can always choose "Other" and type their own answer, so do not add an "Other" option. Set multiSelect when several options can apply together. followUps maps an option's label to questions asked only when the user picks that option.

The result has one line per answer, "question"="answer"; answers the user typed themselves are marked "(typed by the user)". If the user cancels, stop and wait for their instructions instead of guessing.`

// instructions are the server's initialize instructions, for agents that
// show them to their model.
const instructions = "askbridge connects you to the user's editor: when a requirement is ambiguous, a real choice is the user's to make, or a step cannot be undone, call " + ToolName + " instead of guessing."

// Tool is the ask_user_question tool, its schema bounded by lim.
func Tool(lim permission.Limits) *mcp.Tool {
	return &mcp.Tool{
		Name:         ToolName,
		Description:  fmt.Sprintf(description, lim.MaxQuestions, 2, lim.MaxOptions),
		InputSchema:  inputSchema(lim),
		OutputSchema: outputSchema(),
		Annotations: &mcp.ToolAnnotations{
			// Asking changes nothing but the conversation.
			ReadOnlyHint:    true,
			DestructiveHint: new(false),
			OpenWorldHint:   new(false),
		},
	}
}

// inputSchema is the question set as permission.DecodeAskInput reads it
// and permission.Validate checks it. The handler validates again with
// askbridge's own rules, which the schema only mirrors, so that a model
// gets every violation in askbridge's words.
func inputSchema(lim permission.Limits) map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []string{"questions"},
		"properties": map[string]any{
			"questions": questionsSchema(lim, true),
		},
	}
}

// questionsSchema describes a set of questions. Follow-up questions have the
// same shape without the descriptions, and their own followUps are left
// loose rather than nested again: the schema is sent with every model
// request, so it stays small (askbridge still checks every level).
func questionsSchema(lim permission.Limits, top bool) map[string]any {
	question := map[string]any{
		"type":     "object",
		"required": []string{"question", "header", "options"},
		"properties": map[string]any{
			"question": map[string]any{
				"type": "string", "minLength": 1, "maxLength": lim.QuestionMax,
				"description": "The full question, ending with a question mark. Unique within the set.",
			},
			"header": map[string]any{
				"type": "string", "minLength": 1, "maxLength": lim.HeaderMax,
				"description": fmt.Sprintf("A very short title shown above the question, at most %d characters, e.g. \"Database\".", lim.HeaderMax),
			},
			"options": map[string]any{
				"type": "array", "minItems": 2, "maxItems": lim.MaxOptions,
				"description": "The choices. Labels are unique within the question.",
				"items": map[string]any{
					"type":     "object",
					"required": []string{"label"},
					"properties": map[string]any{
						"label":       map[string]any{"type": "string", "minLength": 1, "description": "What the user picks: 1-5 words."},
						"description": map[string]any{"type": "string", "description": "What the option means, or its trade-off."},
					},
				},
			},
			"multiSelect": map[string]any{
				"type": "boolean", "default": false,
				"description": "True when the user may pick several options.",
			},
		},
	}
	followUps := map[string]any{
		"type":                 "object",
		"description":          "Questions asked only when the user picks an option: keys are option labels of this question, values are questions of the same shape.",
		"additionalProperties": map[string]any{"type": "array", "items": map[string]any{"type": "object"}},
	}
	question["properties"].(map[string]any)["followUps"] = followUps
	if top {
		followUps["additionalProperties"] = questionsSchema(lim, false)
	} else {
		stripDescriptions(question)
	}
	return map[string]any{
		"type": "array", "minItems": 1, "maxItems": lim.MaxQuestions,
		"items": question,
	}
}

// stripDescriptions removes the descriptions in schema m and below it
// (but not a property named "description").
func stripDescriptions(m map[string]any) {
	if _, ok := m["description"].(string); ok {
		delete(m, "description")
	}
	for _, v := range m {
		if sub, ok := v.(map[string]any); ok {
			stripDescriptions(sub)
		}
	}
}

// outputSchema describes structuredContent: the answers by question text.
func outputSchema() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []string{"answers"},
		"properties": map[string]any{
			"answers": map[string]any{
				"type":        "object",
				"description": "The answers, keyed by question text.",
				"additionalProperties": map[string]any{
					"type":     "object",
					"required": []string{"answer", "typed"},
					"properties": map[string]any{
						"answer": map[string]any{"type": "string", "description": "The answer as one string: the chosen labels joined with \", \", and the typed text."},
						"labels": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "The option labels the user chose."},
						"typed":  map[string]any{"type": "boolean", "description": "The answer holds text the user typed instead of choosing an option."},
					},
				},
			},
		},
	}
}
