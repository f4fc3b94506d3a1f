package desk

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// A set's note (the agent stopped waiting for it) is listed with it, and
// the set is still answered at the desk.
func TestAPIListsASetsNoteAndItStaysAnswerable(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
	require.NoError(t, board.Note(tk.ID, "The agent stopped waiting."))
	code, body := do(t, s, "GET", "/question", "", nil)
	require.Equal(t, 200, code)
	var list []struct{ ID, Note string }
	require.NoError(t, json.Unmarshal([]byte(body), &list))
	require.Len(t, list, 1)
	assert.Equal(t, "The agent stopped waiting.", list[0].Note)
	code, body = do(t, s, "POST", "/question/"+tk.ID+"/reply", `{"answers":[["Postgres"]]}`, nil)
	assert.Equal(t, 200, code, body)
	<-tk.Done()
	assert.Equal(t, []string{"Postgres"}, tk.Result().Answers[0].Answer.Labels)
}
