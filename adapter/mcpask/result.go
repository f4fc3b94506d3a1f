package mcpask

import (
	"errors"
	"strings"

	"github.com/askbridge/askbridge/permission"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answer is one answer in the result's structuredContent.
type Answer struct {
	Answer string   `json:"answer"`
	Labels []string `json:"labels,omitempty"`
	Typed  bool     `json:"typed"`
}

// Answers is the result's structuredContent: answers by question text.
type Answers struct {
	Answers map[string]Answer `json:"answers"`
}

// answersResult is the answers as one line each, `"question"="answer"`,
// the way a model reads them best, plus the same as structuredContent.
func answersResult(r permission.Result) *mcp.CallToolResult {
	out := Answers{Answers: map[string]Answer{}}
	for _, a := range r.Answers {
		typed := a.Answer.Other && a.Answer.Custom != ""
		out.Answers[a.Question.Question] = Answer{Answer: a.Answer.Text(), Labels: a.Answer.Labels, Typed: typed}
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: r.ModelText()}},
		StructuredContent: out,
	}
}

// invalidResult lists every violation, one a line, so that the model can
// fix them all in one go.
func invalidResult(err error) *mcp.CallToolResult {
	var b strings.Builder
	b.WriteString("Invalid questions, nothing was asked. Fix these and call " + ToolName + " again:")
	var ve *permission.ValidationError
	if errors.As(err, &ve) {
		for _, v := range ve.Violations {
			b.WriteString("\n- " + v.String())
		}
	} else {
		b.WriteString("\n- " + err.Error())
	}
	return errorResult(b.String())
}

// timeoutResult is a question nobody answered in time: not an error, so the
// model goes on, with no answers and words saying why.
func timeoutResult() *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: permission.NoAnswerInTime}},
		StructuredContent: Answers{Answers: map[string]Answer{}},
	}
}

// cancelText is what the model reads when the user cancelled.
func cancelText(reason string) string {
	s := "The user cancelled the question without answering. Do not guess the answer: continue without it or wait for the user's instructions."
	if reason != "" && reason != "the user dismissed the question" {
		s += " (" + reason + ")"
	}
	return s
}

// failureText is what the model reads when the question could not be asked.
func failureText(err error) string {
	s := "The question could not be asked: " + err.Error() + "."
	if errors.Is(err, errUnreachable) || errors.Is(err, errGone) {
		s += " Ask the user in the chat instead."
	}
	return s
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
