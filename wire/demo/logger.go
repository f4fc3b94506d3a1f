package demo

import (
	"context"
	"io"
	"log/slog"
)

// Logger is the demo's log on w: warnings and errors only (acp-go-sdk
// logs "connection closed" at Info when a peer leaves), without the
// records whose message is one of hidden.
//
// The demo hides the relay's warning that its agent is not contained:
// that agent is askbridge's own (askbridge __demo-agent), which asks
// scripted questions, starts nothing and opens no file, so a warning
// meant for an agent that can act as you said nothing true in the middle
// of the demo. An agent of the user's, run by askbridge itself, is warned
// of as before.
func Logger(w io.Writer, hidden ...string) *slog.Logger {
	h := slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})
	return slog.New(hiding{h, hidden})
}

type hiding struct {
	slog.Handler
	hidden []string
}

func (h hiding) Handle(ctx context.Context, r slog.Record) error {
	for _, m := range h.hidden {
		if r.Message == m {
			return nil
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h hiding) WithAttrs(as []slog.Attr) slog.Handler {
	return hiding{h.Handler.WithAttrs(as), h.hidden}
}

func (h hiding) WithGroup(name string) slog.Handler {
	return hiding{h.Handler.WithGroup(name), h.hidden}
}
