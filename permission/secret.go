package permission

import (
	"context"
	"slices"
)

// A secret question (Secret kind: Codex's _meta.codex.isSecret, a form
// field of format "password") has its typed answer read by the agent
// alone. Everything else that shows or keeps answers — the tool call's
// summary, the Board's sets and events (and so the desk, the notifiers and
// a recording's desk lines), logs — sees SecretText in its place. The
// labels picked stay: they are the agent's own options.

// SecretText stands for the typed answer to a Secret question wherever an
// answer leaves askbridge other than to the agent.
const SecretText = "(secret)"

// Redacted is the answer as shown anywhere but to the agent: the typed
// text of a Secret question becomes SecretText.
func (a Answered) Redacted() Answered {
	if a.Question.Kind.Secret && a.Answer.Custom != "" {
		a.Answer.Custom = SecretText
	}
	return a
}

// Redacted is the result with every answer Redacted.
func (r Result) Redacted() Result {
	r.Answers = redactAll(r.Answers)
	return r
}

// Secrets are the texts typed for Secret questions, each once: what a
// recording of the session must not keep.
func (r Result) Secrets() []string {
	var out []string
	for _, a := range r.Answers {
		if a.Question.Kind.Secret && a.Answer.Custom != "" && a.Answer.Custom != SecretText && !slices.Contains(out, a.Answer.Custom) {
			out = append(out, a.Answer.Custom)
		}
	}
	return out
}

func redactAll(as []Answered) []Answered {
	if as == nil {
		return nil
	}
	out := make([]Answered, len(as))
	for i, a := range as {
		out[i] = a.Redacted()
	}
	return out
}

type secretKey struct{}

// AskingSecret reports whether ctx is that of a permission request asking
// a Secret question (Ask marks it): its response carries text only the
// agent may see, which a Peer that records its traffic must not keep.
func AskingSecret(ctx context.Context) bool {
	v, _ := ctx.Value(secretKey{}).(bool)
	return v
}

// askingSecret marks ctx as that of a Secret question's request.
func askingSecret(ctx context.Context, secret bool) context.Context {
	if !secret {
		return ctx
	}
	return context.WithValue(ctx, secretKey{}, true)
}
