package decisions

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The log is bounded: past its size it rotates to FILE.1, dropping the one
// before, so at most twice the size is kept, and Read gives the newest
// records oldest first across both files.
func TestTheLogRotatesAndKeepsTheNewest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "decisions.jsonl")
	l, err := Open(path, 2000)
	require.NoError(t, err)
	for i := range 100 {
		require.NoError(t, l.Append(Record{Set: "q" + string(rune('a'+i%26)), Asked: strings.Repeat("x", 50), Outcome: "answered", WaitedMs: int64(i)}))
	}
	for _, p := range []string{path, path + ".1"} {
		fi, err := os.Stat(p)
		require.NoError(t, err)
		assert.LessOrEqual(t, fi.Size(), int64(2000), p)
		if runtime.GOOS != "windows" {
			assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), p)
		}
	}
	_, err = os.Stat(path + ".2")
	assert.ErrorIs(t, err, os.ErrNotExist, "two files at most")
	recs, err := Read(path)
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	assert.Less(t, len(recs), 100, "the oldest were dropped")
	assert.Equal(t, int64(99), recs[len(recs)-1].WaitedMs, "the newest is last")
	for i := 1; i < len(recs); i++ {
		assert.Equal(t, recs[i-1].WaitedMs+1, recs[i].WaitedMs, "in order, none lost between the two files")
	}

	// A log opened again goes on from the size it has.
	l2, err := Open(path, 2000)
	require.NoError(t, err)
	require.NoError(t, l2.Append(Record{Set: "last", Outcome: "answered"}))
	recs, _ = Read(path)
	assert.Equal(t, "last", recs[len(recs)-1].Set)
}

// An approval is logged with its title and the digest of its arguments,
// never the arguments; the option it picked, whether that lasts, the
// reason of a denial, the device and how long it waited.
func TestARecordOfAnApproval(t *testing.T) {
	asked := time.Now().Add(-3 * time.Second)
	p := permission.Pending{ID: "q7", Kind: permission.KindApproval, SessionID: "a1/s", State: permission.StateAnswered, Asked: asked,
		Approval: &permission.Approval{ToolCall: []byte(`{"title":"git push --force","rawInput":{"command": "git push --force"}}`),
			Options: []permission.ApprovalOption{{OptionID: "ok", Name: "Always allow", Kind: "allow_always"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}},
		Result: &permission.Result{Source: permission.SourceDesk, Device: "Pixel 8", DenyReason: "",
			Answers: []permission.Answered{{Answer: permission.Answer{Labels: []string{"Always allow"}}}}}}
	r := Of(p, Origin{Agent: "claude", CWD: "/src/app", Host: "box", Instance: "a1"}, asked.Add(3*time.Second))
	assert.Equal(t, "git push --force", r.Asked)
	assert.True(t, strings.HasPrefix(r.Digest, "sha256:"), r.Digest)
	assert.Len(t, r.Digest, len("sha256:")+64)
	// The same arguments spaced otherwise have the same digest.
	p2 := p
	p2.Approval = &permission.Approval{ToolCall: []byte(`{"title":"git push --force","rawInput":{"command":"git push --force"}}`), Options: p.Approval.Options}
	assert.Equal(t, r.Digest, Of(p2, Origin{}, time.Now()).Digest)
	assert.Equal(t, "Always allow", r.Answer)
	assert.True(t, r.Lasting)
	assert.Equal(t, "Pixel 8", r.Device)
	assert.Equal(t, permission.SourceDesk, r.Route)
	assert.Equal(t, int64(3000), r.WaitedMs)
	assert.Equal(t, "claude", r.Agent)
	assert.Equal(t, "/src/app", r.CWD)

	p.Result = &permission.Result{Source: permission.SourceHub, DenyReason: "move it to archive/ instead",
		Answers: []permission.Answered{{Answer: permission.Answer{Labels: []string{"Reject"}}}}}
	r = Of(p, Origin{}, time.Now())
	assert.Equal(t, "move it to archive/ instead", r.Reason)
	assert.False(t, r.Lasting)
}

// A secret question's typed answer is never in a record, even from a
// result that was not redacted.
func TestASecretAnswerIsNotLogged(t *testing.T) {
	q := permission.Question{Header: "Token", Question: "Your API token?", Kind: permission.Secret}
	p := permission.Pending{ID: "q1", State: permission.StateAnswered, Questions: []permission.Question{q},
		Result: &permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Other: true, Custom: "hunter2-secret"}}}}}
	r := Of(p, Origin{}, time.Now())
	assert.NotContains(t, r.Answer, "hunter2-secret")
	assert.Contains(t, r.Answer, permission.SecretText)
}
