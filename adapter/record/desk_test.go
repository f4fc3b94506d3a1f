package record

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/adapter/relay/relaytest"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/permissiontest"
)

// The desk's resolutions go into the recording, each before what
// askbridge says after it; the client's own answers do not.
func TestRecordDeskKeepsEachDeskResolution(t *testing.T) {
	h := relaytest.New(t, relay.Config{}, nil)
	board := permission.NewBoard()
	stop := Install(h.Relay).Desk(board)
	q := func(text string, labels ...string) permission.Question {
		var opts []permission.Option
		for _, l := range labels {
			opts = append(opts, permission.Option{Label: l})
		}
		return permission.Question{Question: text, Header: text[:5], Options: opts}
	}
	db := q("Which database?", "Postgres", "SQLite")
	db.FollowUps = map[string][]permission.Question{"Postgres": {q("Which version?", "16", "17")}}
	langs := q("Which languages?", "Go", "Rust", "C")
	langs.Kind.Many = true

	one := board.Open(permission.Request{SessionID: "s1", Round: 1, Questions: []permission.Question{db, langs}})
	done, err := board.ProgressBy(one.ID, 0, []permission.Answer{{Labels: []string{"Postgres"}}, {Labels: []string{"Go", "C"}}}, permissiontest.InProcess(""))
	require.NoError(t, err)
	require.False(t, done)
	require.NoError(t, h.Relay.Client.Notify("after/step0", nil))
	done, err = board.ProgressBy(one.ID, 1, []permission.Answer{{Other: true, Custom: "18 beta"}}, permissiontest.InProcess(""))
	require.NoError(t, err)
	require.True(t, done)
	require.NoError(t, h.Relay.Client.Notify("after/round1", nil))

	two := board.Open(permission.Request{SessionID: "s1", Round: 2, Questions: []permission.Question{db}})
	require.NoError(t, board.Withdraw(two.ID, "rejected at the answer desk", permission.BySelf(permission.SourceDesk)))
	three := board.Open(permission.Request{SessionID: "s1", Round: 3, Questions: []permission.Question{db}})
	require.NoError(t, board.Settle(three.ID, permission.Result{Answers: []permission.Answered{{Question: db, Answer: permission.Answer{Labels: []string{"SQLite"}}}}}, permission.ByEditor()))
	four := board.Open(permission.Request{SessionID: "s1", Round: 4, Questions: []permission.Question{db}})
	require.NoError(t, board.Withdraw(four.ID, "the user dismissed the question", permission.BySelf(permission.SourceClient)))
	stop()
	h.Relay.Flush()

	var got []string
	sc := bufio.NewScanner(strings.NewReader(h.Rec.String()))
	for sc.Scan() {
		var e struct {
			Dir string
			Msg json.RawMessage
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &e), sc.Text())
		got = append(got, e.Dir+" "+string(e.Msg))
	}
	assert.Equal(t, []string{
		`desk {"session":"s1","round":1,"step":0,"questions":["Which database?","Which languages?"],"answers":[["Postgres"],["Go","C"]]}`,
		`a2c {"jsonrpc":"2.0","method":"after/step0"}`,
		`desk {"session":"s1","round":1,"step":1,"questions":["Which version?"],"answers":[["18 beta"]]}`,
		`a2c {"jsonrpc":"2.0","method":"after/round1"}`,
		`desk {"session":"s1","round":2,"step":0,"questions":["Which database?"],"reject":true}`,
	}, got)
}

func TestRecordDeskWithoutARecordingDoesNothing(t *testing.T) {
	r := relay.New(relay.Config{ClientIn: strings.NewReader(""), ClientOut: &relaytest.Buffer{}, AgentIn: strings.NewReader(""), AgentOut: &relaytest.Buffer{}})
	stop := Install(r).Desk(permission.NewBoard())
	stop()
	stop() // twice is fine
}
