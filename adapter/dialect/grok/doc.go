// Package grok is the dialect of Grok Build (`grok acp`): its question,
// the extension request _x.ai/ask_user_question.
package grok
