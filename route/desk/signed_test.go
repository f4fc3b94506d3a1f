package desk

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/internal/decisions"
	"github.com/askbridge/askbridge/permission"
)

// signedPresence asks for the passkey of approving id with answers (and a
// reason), and gives the challenge with the statement it is the hash of.
func (l *localhost) signedPresence(id string, answers [][]string, reason string) (challenge string, statement []byte) {
	var opts struct {
		PublicKey struct{ Challenge string }
		Statement string
	}
	require.Equal(l.t, 200, l.post("/question/"+id+"/presence", map[string]any{"answers": answers, "step": 0, "reason": reason}, &opts))
	return opts.PublicKey.Challenge, []byte(opts.Statement)
}

// An approval's passkey signs the statement of what is applied: the
// challenge is SHA-256 of it, and it names the set, where it comes from,
// the command as the card shows it and the option picked. The proof
// travels to the set's result, and a record of it verifies offline; one
// byte changed in the logged statement and it does not.
func TestAnApprovalIsSignedOverItsStatement(t *testing.T) {
	s, board := newDesk(t, Options{})
	board.Describe(func(o *permission.Origin) { o.Agent, o.Host, o.CWD = "claude", "box", "/src/app" })
	tk := openApproval(board)
	browser := newLocalhost(t, s)
	key := newSoftKey(t, browser.origin())
	require.Equal(t, 200, browser.pairWith(key, flagUP|flagUV))
	allow := [][]string{{"Allow once"}}

	ch, stmt := browser.signedPresence(tk.ID, allow, "")
	require.NotEmpty(t, stmt, "the statement is given with the challenge")
	assert.Equal(t, b64u.EncodeToString(decisions.Challenge(stmt)), ch, "the challenge is the statement's hash")
	st, err := decisions.ParseStatement(stmt)
	require.NoError(t, err)
	assert.Equal(t, tk.ID, st.Set)
	assert.Equal(t, "rm -rf build", st.Title)
	assert.Equal(t, "execute", st.Kind)
	assert.Equal(t, decisions.Digest([]byte(`{"command":"rm -rf build"}`)), st.Arguments, "the arguments, by digest")
	assert.Equal(t, []decisions.Picked{{Kind: "allow_once", Name: "Allow once", OptionID: "allow"}}, st.Options)
	assert.Equal(t, "claude", st.Agent)
	assert.Equal(t, "/src/app", st.CWD)
	assert.NotEmpty(t, st.Nonce)

	require.Equal(t, http.StatusOK, browser.post("/question/"+tk.ID+"/reply", map[string]any{"answers": allow, "step": 0, "assertion": key.get(t, ch, flagUP|flagUV)}, nil))
	<-tk.Done()
	res := tk.Result()
	require.NotNil(t, res.Signed, "the proof is in the result")
	assert.Equal(t, stmt, res.Signed.Statement)

	p, _ := board.Get(tk.ID)
	rec := decisions.Of(p, decisions.Origin{Agent: "claude", CWD: "/src/app"}, time.Now())
	dev := s.Devices().List()[0]
	paired := map[string]decisions.Key{dev.ID: {Name: dev.Name, CredentialID: dev.Passkey.ID, PublicKey: dev.Passkey.PublicKey}}
	v := decisions.Verify([]decisions.Record{rec}, paired)
	require.NoError(t, v[0].Err)
	assert.Equal(t, "test laptop", v[0].Paired)
	assert.NoError(t, decisions.Verify([]decisions.Record{rec}, nil)[0].Err, "a revoked device's record verifies with its own key")

	changed := rec
	signed := *rec.Signed
	signed.Statement = append([]byte(nil), signed.Statement...)
	signed.Statement[len(signed.Statement)-3] ^= 1
	changed.Signed = &signed
	assert.Error(t, decisions.Verify([]decisions.Record{changed}, paired)[0].Err, "one byte changed")
}

// A denial's reason is in what the passkey signs, and a statement signed
// for other answers than those sent is refused.
func TestAStatementForOtherAnswersIsRefused(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := openApproval(board)
	browser := newLocalhost(t, s)
	key := newSoftKey(t, browser.origin())
	require.Equal(t, 200, browser.pairWith(key, flagUP|flagUV))
	reject := [][]string{{"Reject"}}
	reply := func(ch string, answers [][]string, reason string) int {
		return browser.post("/question/"+tk.ID+"/reply", map[string]any{"answers": answers, "step": 0, "reason": reason, "assertion": key.get(t, ch, flagUP|flagUV)}, nil)
	}

	ch, _ := browser.signedPresence(tk.ID, reject, "")
	assert.Equal(t, http.StatusForbidden, reply(ch, [][]string{{"Allow once"}}, ""), "signed a rejection, sent an approval")
	ch, _ = browser.signedPresence(tk.ID, reject, "move it to archive/")
	assert.Equal(t, http.StatusForbidden, reply(ch, reject, "rm it anyway"), "signed another reason")

	ch, stmt := browser.signedPresence(tk.ID, reject, "move it to archive/")
	st, err := decisions.ParseStatement(stmt)
	require.NoError(t, err)
	assert.Equal(t, "move it to archive/", st.Reason)
	require.Equal(t, http.StatusOK, reply(ch, reject, "move it to archive/"))
	<-tk.Done()
	require.NotNil(t, tk.Result().Signed)
	p, _ := board.Get(tk.ID)
	assert.NoError(t, decisions.Verify([]decisions.Record{decisions.Of(p, decisions.Origin{}, time.Now())}, nil)[0].Err)
	assert.Equal(t, permission.StateAnswered, p.State)
}

// The statement is formed again at the reply from what the answers apply
// then: when that is no longer what was signed (here, the set's folder as
// the hub knows it), the reply is refused, even with the same answers.
func TestAStatementNoLongerTrueIsRefused(t *testing.T) {
	s, board := newDesk(t, Options{})
	board.Describe(func(o *permission.Origin) { o.CWD = "/src/app" })
	tk := openApproval(board)
	browser := newLocalhost(t, s)
	key := newSoftKey(t, browser.origin())
	require.Equal(t, 200, browser.pairWith(key, flagUP|flagUV))
	allow := [][]string{{"Allow once"}}
	ch, _ := browser.signedPresence(tk.ID, allow, "")
	board.Describe(func(o *permission.Origin) { o.CWD = "/src/other" })
	assert.Equal(t, http.StatusForbidden, browser.post("/question/"+tk.ID+"/reply", map[string]any{"answers": allow, "step": 0, "assertion": key.get(t, ch, flagUP|flagUV)}, nil))
	ch, _ = browser.signedPresence(tk.ID, allow, "")
	assert.Equal(t, http.StatusOK, browser.post("/question/"+tk.ID+"/reply", map[string]any{"answers": allow, "step": 0, "assertion": key.get(t, ch, flagUP|flagUV)}, nil))
}
