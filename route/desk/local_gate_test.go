package desk

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The inbox's API approves only with the user's leave, which its listener
// gives (permission.Vouch: the hub's --inbox-approvals): a LocalHandler
// served with nothing said answers questions, and its approvals wait. Before the
// board's gate, LocalHandler approved whatever reached it.
func TestLocalHandlerApprovesOnlyWithTheListenersLeave(t *testing.T) {
	s, board := newDesk(t, Options{})
	reply := func(id string, proof *permission.Proof) (int, string) {
		r := httptest.NewRequest("POST", "http://localhost/question/"+id+"/reply", strings.NewReader(`{"answers":[["Allow once"]]}`))
		if proof != nil {
			r = r.WithContext(permission.Vouch(r.Context(), *proof))
		}
		w := httptest.NewRecorder()
		s.LocalHandler().ServeHTTP(w, r)
		return w.Code, w.Body.String()
	}
	tk := openApproval(board)
	code, body := reply(tk.ID, nil)
	assert.Equal(t, http.StatusForbidden, code, body)
	assert.Contains(t, body, "no approvals from the terminal inbox")
	peer := permission.ProofPeer
	code, body = reply(tk.ID, &peer)
	assert.Equal(t, http.StatusForbidden, code, body)
	leaveOnly := permission.ProofLeave
	code, body = reply(tk.ID, &leaveOnly)
	assert.Equal(t, http.StatusForbidden, code, "leave without the peer's credentials: "+body)
	p, ok := board.Get(tk.ID)
	require.True(t, ok)
	assert.Equal(t, permission.StatePending, p.State)

	leave := permission.ProofPeer | permission.ProofLeave
	code, body = reply(tk.ID, &leave)
	require.Equal(t, http.StatusOK, code, body)
	<-tk.Done()
	assert.Equal(t, permission.SourceInbox, tk.Result().Source)
}
