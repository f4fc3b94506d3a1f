package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cancelledOutcome = `{"outcome":{"outcome":"cancelled"}}`

func yesNo(p map[string]any) (allow, reject int) {
	for _, o := range p["options"].([]any) {
		switch o.(map[string]any)["kind"] {
		case "allow_once":
			allow++
		case "reject_once":
			reject++
		}
	}
	return allow, reject
}

// n then y gives the second option; each request names its question and
// option in the title and has one allow and one reject option, which is
// all a y/N client can choose between.
func TestYesNoWalkNoThenYesPicksTheSecond(t *testing.T) {
	peer := &fakePeer{respond: script(selected(NoID), selected(YesID))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", YesNo: true, Round: 1,
		Questions: []Question{q("Which database?", "Database", "Postgres", "Redis")}})
	require.NoError(t, err)
	require.Len(t, res.Answers, 1)
	assert.Equal(t, []string{"Redis"}, res.Answers[0].Answer.Labels)
	require.Len(t, peer.asked, 2)
	assert.Equal(t, "Which database? — Postgres", title(peer.asked[0]))
	assert.Equal(t, "Which database? — Redis", title(peer.asked[1]))
	for _, p := range peer.asked {
		allow, reject := yesNo(p)
		assert.Equal(t, [2]int{1, 1}, [2]int{allow, reject})
		assert.Equal(t, []string{YesID, NoID}, optionIDs(p), "yes first: y/N clients pick the first allow option")
	}
}

func TestYesNoWalkMultiSelectEndsWithThePicks(t *testing.T) {
	qq := q("Which languages?", "Languages", "Go", "Rust", "C")
	qq.Kind.Many = true
	peer := &fakePeer{respond: script(selected(YesID), selected(NoID), selected(YesID))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", YesNo: true, Questions: []Question{qq}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Go", "C"}, res.Answers[0].Answer.Labels)
	assert.Len(t, peer.asked, 3, "every option is asked, and no chat step after picks")
}

func TestYesNoWalkChatStepAndDismissal(t *testing.T) {
	qq := q("Which database?", "Database", "Postgres", "Redis")
	peer := &fakePeer{respond: script(selected(NoID), selected(NoID), selected(YesID))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", YesNo: true, Questions: []Question{qq}})
	require.NoError(t, err)
	assert.True(t, res.Answers[0].Answer.Other, "yes to the chat step is Other without text")
	assert.Empty(t, res.Answers[0].Answer.Custom)
	assert.Contains(t, title(peer.asked[2]), ChatStep)

	peer = &fakePeer{respond: script(selected(NoID), selected(NoID), selected(NoID))}
	res, err = Ask(t.Context(), peer, Request{SessionID: "s", YesNo: true, Questions: []Question{qq}})
	require.NoError(t, err)
	assert.True(t, res.Cancelled, "no to everything is a dismissal")

	peer = &fakePeer{respond: script(cancelledOutcome)}
	res, err = Ask(t.Context(), peer, Request{SessionID: "s", YesNo: true, Questions: []Question{qq, q("Second?", "Second", "a", "b")}})
	require.NoError(t, err)
	assert.True(t, res.Cancelled)
	assert.Len(t, peer.asked, 1, "a cancel ends the set")
}

func TestYesNoWalkRefusesAnOptionItDidNotOffer(t *testing.T) {
	peer := &fakePeer{respond: script(selected("Postgres"))}
	_, err := Ask(t.Context(), peer, Request{SessionID: "s", YesNo: true, Questions: []Question{q("Which database?", "Database", "Postgres", "Redis")}})
	assert.ErrorContains(t, err, `"Postgres" is not an option of the yes/no request`)
}
