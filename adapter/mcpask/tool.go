package mcpask

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"

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
func inputSchema(lim permission.Limits) *jsonschema.Schema {
	return object([]string{"questions"}, props{"questions": questionsSchema(lim, true)})
}

// props are a schema's properties.
type props = map[string]*jsonschema.Schema

func object(required []string, p props) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Required: required, Properties: p}
}

func str(min, max int, description string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: description}
	if min > 0 {
		s.MinLength = new(min)
	}
	if max > 0 {
		s.MaxLength = new(max)
	}
	return s
}

func array(min, max int, items *jsonschema.Schema, description string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "array", Items: items, Description: description}
	if min > 0 {
		s.MinItems = new(min)
	}
	if max > 0 {
		s.MaxItems = new(max)
	}
	return s
}

// questionsSchema describes a set of questions. Follow-up questions have the
// same shape without the descriptions, and their own followUps are left
// loose rather than nested again: the schema is sent with every model
// request, so it stays small (askbridge still checks every level).
func questionsSchema(lim permission.Limits, top bool) *jsonschema.Schema {
	question := object([]string{"question", "header", "options"}, props{
		"question": str(1, lim.QuestionMax, "The full question, ending with a question mark. Unique within the set."),
		"header":   str(1, lim.HeaderMax, fmt.Sprintf("A very short title shown above the question, at most %d characters, e.g. \"Database\".", lim.HeaderMax)),
		"options": array(2, lim.MaxOptions, object([]string{"label"}, props{
			"label":       str(1, 0, "What the user picks: 1-5 words."),
			"description": str(0, 0, "What the option means, or its trade-off."),
		}), "The choices. Labels are unique within the question."),
		"multiSelect": {Type: "boolean", Default: json.RawMessage("false"), Description: "True when the user may pick several options."},
	})
	followUps := &jsonschema.Schema{
		Type:                 "object",
		Description:          "Questions asked only when the user picks an option: keys are option labels of this question, values are questions of the same shape.",
		AdditionalProperties: array(0, 0, &jsonschema.Schema{Type: "object"}, ""),
	}
	question.Properties["followUps"] = followUps
	if top {
		followUps.AdditionalProperties = questionsSchema(lim, false)
	} else {
		stripDescriptions(question)
	}
	return array(1, lim.MaxQuestions, question, "")
}

// stripDescriptions removes the descriptions in schema s and below it.
func stripDescriptions(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Description = ""
	stripDescriptions(s.Items)
	stripDescriptions(s.AdditionalProperties)
	for _, p := range s.Properties {
		stripDescriptions(p)
	}
}

// outputSchema describes structuredContent: the answers by question text.
func outputSchema() *jsonschema.Schema {
	answer := object([]string{"answer", "typed"}, props{
		"answer": str(0, 0, "The answer as one string: the chosen labels joined with \", \", and the typed text."),
		"labels": array(0, 0, &jsonschema.Schema{Type: "string"}, "The option labels the user chose."),
		"typed":  {Type: "boolean", Description: "The answer holds text the user typed instead of choosing an option."},
	})
	answers := &jsonschema.Schema{Type: "object", Description: "The answers, keyed by question text.", AdditionalProperties: answer}
	return object([]string{"answers"}, props{"answers": answers})
}
