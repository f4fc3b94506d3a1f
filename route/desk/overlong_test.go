package desk

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// Over-long input is the sender's error, never the desk's: every endpoint
// that takes a body answers 400 and names the limit, for a body over
// 1 MiB and for a typed text (an answer, a denial's reason) over 1000
// characters. Failed before: a 5,000-character deny reason was a 500, and
// a body over 1 MiB was "invalid JSON", naming no limit.
func TestOverLongInputIs400NamingTheLimit(t *testing.T) {
	s, board := newDesk(t, Options{})
	approval := openApproval(board)
	question := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}})
	long := strings.Repeat("x", 5000)
	huge := `{"answers":[["` + strings.Repeat("y", 1<<20) + `"]]}`
	_, approver, err := s.Devices().Add("old laptop", "", nil, nil, true) // approves without a passkey
	require.NoError(t, err)
	for _, tt := range []struct {
		name, method, path, body, want string
		hdr                            map[string]string
	}{
		{"a deny reason", "POST", "/question/" + approval.ID + "/reply", `{"answers":[["Reject"]],"reason":"` + long + `"}`, "reason: a typed answer of 5000 characters; the limit is 1000", authHeaders(s, approver)},
		{"a typed answer", "POST", "/question/" + question.ID + "/reply", `{"answers":[["` + long + `"]]}`, "the limit is 1000", nil},
		{"a task's typed answer", "POST", "/api/task/answer", `{"session_id":"s1","question_id":"` + question.ID + `","answer":"` + long + `"}`, "the limit is 1000", nil},
		{"a reply's body", "POST", "/question/" + question.ID + "/reply", huge, "the limit is 1 MiB", nil},
		{"a task answer's body", "POST", "/api/task/answer", huge, "the limit is 1 MiB", nil},
		{"a hold's body", "POST", "/question/" + question.ID + "/hold", huge, "the limit is 1 MiB", nil},
		{"a presence's body", "POST", "/question/" + approval.ID + "/presence", huge, "the limit is 1 MiB", nil},
		{"a pairing's body", "POST", "/pair/begin", huge, "the limit is 1 MiB", nil},
		{"a pairing's end's body", "POST", "/pair/finish", huge, "the limit is 1 MiB", nil},
	} {
		got, body := do(t, s, tt.method, tt.path, tt.body, tt.hdr)
		assert.Equal(t, http.StatusBadRequest, got, "%s: %.300s", tt.name, body)
		assert.Contains(t, body, tt.want, tt.name)
	}
	p, _ := board.Get(approval.ID)
	assert.Equal(t, permission.StatePending, p.State, "nothing was decided")
}
