//go:build browser

package desk

import (
	"context"
	"errors"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deskCount is a kind the desk has never heard of, registered as a new
// kind's file registers it: the page shows it by what it says of itself.
var deskCount = permission.RegisterKind(permission.AnswerKind{Name: "desk-count", Input: "number", Hint: "a count"}, func(s string) error {
	if _, err := strconv.Atoi(s); err != nil {
		return errors.New("a whole number")
	}
	return nil
})

func TestBrowserShowsAKindsOwnField(t *testing.T) {
	needBrowser(t)
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "(no session)", Questions: []permission.Question{{Header: "Replicas",
		Question: "How many replicas?", Options: []permission.Option{{Label: "As before"}}, Kind: deskCount}}})
	code, _ := s.Devices().NewCode()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "node", "e2e/kind.mjs", s.URL(), code).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "TYPE number\n")
	assert.Contains(t, string(out), "PLACEHOLDER type a count\n")
	assert.Contains(t, string(out), "SENT")
	<-tk.Done()
	assert.Equal(t, permission.Answer{Other: true, Custom: "12"}, tk.Result().Answers[0].Answer)
}
