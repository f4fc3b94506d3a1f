//go:build browser

package desk

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
)

// Chromium's own WebAuthn (a DevTools virtual authenticator, user
// verified) signs an approval's statement: the record of it verifies
// offline against the paired device's key, and fails with one byte of
// its statement changed. The page sends nothing new: the challenge it
// signs is the server's.
func TestBrowserSignsAnApprovalsStatement(t *testing.T) {
	needBrowser(t)
	s, board := newDesk(t, Options{})
	a := &permission.Approval{ToolCall: json.RawMessage(`{"toolCallId":"t1","kind":"execute","title":"rm -rf build","rawInput":{"command":"rm -rf build <b>now</b>"}}`),
		Options: []permission.ApprovalOption{{OptionID: "once", Name: "Allow once", Kind: "allow_once"}, {OptionID: "always", Name: "Always allow", Kind: "allow_always"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	tk := board.Open(permission.Request{SessionID: "s1", ToolCallID: "t1", Approval: a, Questions: []permission.Question{{
		Header: "Approval: execute", Question: "rm -rf build", Kind: permission.Fixed,
		Options: []permission.Option{{Label: "Allow once"}, {Label: "Always allow", Description: "lasting: the agent will not ask again"}, {Label: "Reject"}}}}})

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, _ := s.Devices().NewCode()
	out, err := exec.CommandContext(ctx, "node", "e2e/approval.mjs", s.URL(), code, filepath.Join(t.TempDir(), "a.png")).CombinedOutput()
	require.NoError(t, err, string(out))
	<-tk.Done()
	require.NotNil(t, tk.Result().Signed, "the browser's assertion is over the statement")

	p, _ := board.Get(tk.ID)
	rec := decisions.Of(p, decisions.Origin{}, time.Now())
	dev := s.Devices().List()[0]
	paired := map[string]decisions.Key{dev.ID: {Name: dev.Name, CredentialID: dev.Passkey.ID, PublicKey: dev.Passkey.PublicKey}}
	v := decisions.Verify([]decisions.Record{rec}, paired)
	require.NoError(t, v[0].Err)
	assert.Equal(t, dev.Name, v[0].Paired)

	signed := *rec.Signed
	signed.Statement = append([]byte(nil), signed.Statement...)
	signed.Statement[len(signed.Statement)/2] ^= 1
	rec.Signed = &signed
	assert.Error(t, decisions.Verify([]decisions.Record{rec}, paired)[0].Err, "one byte changed")
}
