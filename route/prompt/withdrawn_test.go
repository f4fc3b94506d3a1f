package prompt

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A question withdrawn by a caller who knows why says so where it stood
// (it said "answered elsewhere, or the turn was cancelled" of a set
// answered on the user's phone); without a reason, the guess stays.
func TestAWithdrawnQuestionSaysWhatBecameOfIt(t *testing.T) {
	settled := func(ctx context.Context) string {
		f, err := os.Create(filepath.Join(t.TempDir(), "tty"))
		require.NoError(t, err)
		defer f.Close()
		tty := &TTY{f: f, style: newTTYStyles(lipgloss.NewRenderer(f))}
		tty.settle(ctx, Request{Title: "Database", Text: "Which database?"}, "", withdrawn)
		b, err := os.ReadFile(f.Name())
		require.NoError(t, err)
		return string(b)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&Withdrawn{Why: "Answered elsewhere on the hub's page (iPhone)."})
	out := settled(ctx)
	assert.Contains(t, out, "✘ Answered elsewhere on the hub's page (iPhone).")
	assert.NotContains(t, out, "or the turn was cancelled")

	plain, stop := context.WithCancel(context.Background())
	stop()
	assert.Contains(t, settled(plain), "✘ withdrawn (answered elsewhere, or the turn was cancelled)")
}
