package permission

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakePeer is a client as a struct of funcs: respond answers each
// permission request; notes collects the notifications.
type fakePeer struct {
	mu      sync.Mutex
	asked   []map[string]any
	notes   []map[string]any
	respond func(n int, params map[string]any) (string, error)
}

func (f *fakePeer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	var p map[string]any
	json.Unmarshal(params, &p)
	f.mu.Lock()
	f.asked = append(f.asked, p)
	n := len(f.asked)
	f.mu.Unlock()
	resp, err := f.respond(n, p)
	if err != nil {
		return nil, err
	}
	if resp == "block" {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return []byte(resp), nil
}

func (f *fakePeer) Notify(ctx context.Context, method string, params any) error {
	b, _ := json.Marshal(params)
	var p map[string]any
	json.Unmarshal(b, &p)
	f.mu.Lock()
	f.notes = append(f.notes, p)
	f.mu.Unlock()
	return nil
}

func selected(id string) string { return `{"outcome":{"outcome":"selected","optionId":"` + id + `"}}` }

func script(responses ...string) func(int, map[string]any) (string, error) {
	return func(n int, _ map[string]any) (string, error) {
		if n > len(responses) {
			return "", errors.New("unexpected question")
		}
		return responses[n-1], nil
	}
}

func title(p map[string]any) string { return p["toolCall"].(map[string]any)["title"].(string) }

func optionIDs(p map[string]any) []string {
	var ids []string
	for _, o := range p["options"].([]any) {
		ids = append(ids, o.(map[string]any)["optionId"].(string))
	}
	return ids
}

func TestAskSingleSelect(t *testing.T) {
	peer := &fakePeer{respond: script(selected("SQLite"))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{q("Which database?", "Database", "Postgres", "SQLite")}, Round: 1})
	require.NoError(t, err)
	assert.Equal(t, []string{"SQLite"}, res.Answers[0].Answer.Labels)
	assert.Equal(t, "Database", title(peer.asked[0]))
	assert.Equal(t, []string{"Postgres", "SQLite", OtherID}, optionIDs(peer.asked[0]))
	// A tool call shows the question first; an update summarises at the end.
	require.Len(t, peer.notes, 2)
	first := peer.notes[0]["update"].(map[string]any)
	assert.Equal(t, "tool_call", first["sessionUpdate"])
	assert.Equal(t, "think", first["kind"])
	last := peer.notes[1]["update"].(map[string]any)
	assert.Equal(t, "completed", last["status"])
	assert.Contains(t, mustJSON(last["content"]), "Database: SQLite")
}

func TestAskMultiSelectReadsSelectedOptionIdsAtOnce(t *testing.T) {
	qq := q("Which languages?", "Languages", "Go", "Rust", "C")
	qq.Kind.Many = true
	peer := &fakePeer{respond: script(`{"outcome":{"outcome":"selected","optionId":"C","_meta":{"selectedOptionIds":["C","Go"]}}}`)}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{qq}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Go", "C"}, res.Answers[0].Answer.Labels, "in option order")
	assert.Len(t, peer.asked, 1)
}

func TestAskMultiSelectOnePickAtATimeUntilDone(t *testing.T) {
	qq := q("Which languages?", "Languages", "Go", "Rust", "C")
	qq.Kind.Many = true
	peer := &fakePeer{respond: script(selected("Rust"), selected("Go"), selected(DoneID))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{qq}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Go", "Rust"}, res.Answers[0].Answer.Labels)
	assert.Equal(t, []string{"Go", "C", OtherID, DoneID}, optionIDs(peer.asked[1]))
	assert.Equal(t, []string{"C", OtherID, DoneID}, optionIDs(peer.asked[2]))
}

func TestAskOtherWithAndWithoutText(t *testing.T) {
	peer := &fakePeer{respond: script(`{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"MariaDB"}}}`, selected(OtherID))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{q("Which database?", "Database", "Postgres", "SQLite"), q("Why?", "Why", "Speed", "Cost")}})
	require.NoError(t, err)
	assert.Equal(t, Answer{Other: true, Custom: "MariaDB"}, res.Answers[0].Answer)
	assert.Equal(t, "MariaDB", res.Answers[0].Answer.Text())
	assert.Equal(t, OtherWithoutText, res.Answers[1].Answer.Text())
	assert.Equal(t, "Database (1/2)", title(peer.asked[0]))
	assert.Equal(t, "Why (2/2)", title(peer.asked[1]))
}

func TestAskCancelAtTheFirstOfThreeShowsNoMore(t *testing.T) {
	peer := &fakePeer{respond: script(`{"outcome":{"outcome":"cancelled"}}`)}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{q("1?", "A", "a", "b"), q("2?", "B", "a", "b"), q("3?", "C", "a", "b")}})
	require.NoError(t, err)
	assert.True(t, res.Cancelled)
	assert.Len(t, peer.asked, 1)
	assert.Equal(t, "failed", peer.notes[len(peer.notes)-1]["update"].(map[string]any)["status"])
}

func TestAskContextEndingWhilePendingCancels(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	peer := &fakePeer{respond: func(int, map[string]any) (string, error) { return "block", nil }}
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	res, err := Ask(ctx, peer, Request{SessionID: "s", Questions: []Question{q("1?", "A", "a", "b"), q("2?", "B", "a", "b")}})
	require.NoError(t, err)
	assert.True(t, res.Cancelled)
	assert.Len(t, peer.asked, 1)
}

func TestAskClientErrorsAreErrors(t *testing.T) {
	peer := &fakePeer{respond: func(int, map[string]any) (string, error) { return "", errors.New("client gone") }}
	_, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{q("1?", "A", "a", "b")}})
	assert.ErrorContains(t, err, "client gone")
	peer = &fakePeer{respond: script(selected("nope"))}
	_, err = Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{q("1?", "A", "a", "b")}})
	assert.ErrorContains(t, err, `optionId "nope" is not an option`)
}

func TestAskFollowUps(t *testing.T) {
	provider := q("Which provider?", "Provider", "GitHub", "Google")
	provider.FollowUps = map[string][]Question{"GitHub": {q("Which org?", "Org", "acme", "other")}}
	auth := q("Which auth?", "Auth", "OAuth", "SAML", "None")
	auth.Kind.Many = true
	auth.FollowUps = map[string][]Question{"OAuth": {provider}, "SAML": {q("Which IdP?", "IdP", "Okta", "Azure")}, "None": {q("Sure?", "Sure", "yes", "no")}}
	peer := &fakePeer{respond: script(
		`{"outcome":{"outcome":"selected","optionId":"OAuth","_meta":{"selectedOptionIds":["SAML","OAuth"]}}}`,
		selected("GitHub"), selected("acme"), selected("Okta"), selected("now"))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{auth, q("Deploy?", "Deploy", "now", "later")}, Round: 2})
	require.NoError(t, err)
	var got []string
	for _, a := range res.Answers {
		got = append(got, a.Path+"="+a.Answer.Text())
	}
	assert.Equal(t, []string{
		"questions[0]=OAuth, SAML",
		`questions[0].followUps["OAuth"][0]=GitHub`,
		`questions[0].followUps["OAuth"][0].followUps["GitHub"][0]=acme`,
		`questions[0].followUps["SAML"][0]=Okta`,
		"questions[1]=now",
	}, got, "follow-ups come right after their question, nested ones first")
	assert.Equal(t, "Round 2 · Auth (1/2)", title(peer.asked[0]))
	assert.Equal(t, "Round 2 · Provider (2/4)", title(peer.asked[1]))
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestAskMultiSelectWithOneSelectedOptionIdIsAnsweredAtOnce(t *testing.T) {
	qq := q("Which languages?", "Languages", "Go", "Rust", "C")
	qq.Kind.Many = true
	peer := &fakePeer{respond: script(`{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go"]}}}`)}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{qq}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Go"}, res.Answers[0].Answer.Labels)
	assert.Len(t, peer.asked, 1)
}

func TestAskMultiSelectEndsWhenTheClientRepeatsItself(t *testing.T) {
	qq := q("Which languages?", "Languages", "Go", "Rust", "C")
	qq.Kind.Many = true
	peer := &fakePeer{respond: script(selected("Go"), selected("Go"))}
	res, err := Ask(t.Context(), peer, Request{SessionID: "s", Questions: []Question{qq}})
	require.NoError(t, err)
	assert.Equal(t, []string{"Go"}, res.Answers[0].Answer.Labels)
	assert.Len(t, peer.asked, 2)
}
