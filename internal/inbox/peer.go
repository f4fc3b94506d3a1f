package inbox

import (
	"context"

	"github.com/askbridge/askbridge/internal/prompt"
)

// peer answers the asking flow's permission requests in the terminal.
type peer struct{ p prompt.Prompter }

func (l peer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	return prompt.Answer(ctx, l.p, params)
}

func (l peer) Notify(context.Context, string, any) error { return nil }
