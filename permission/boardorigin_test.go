package permission

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nextOf reads events until one of typ, within a second.
func nextOf(t *testing.T, events <-chan Event, typ EventType) Event {
	t.Helper()
	timeout := time.After(time.Second)
	for {
		select {
		case ev := <-events:
			if ev.Type == typ {
				return ev
			}
		case <-timeout:
			t.Fatalf("no %s event", typ)
			return Event{}
		}
	}
}

// A mode can change while a set waits: the set the board hands out shows
// the mode as it is now, and the pages hear of it (an event) to redraw the
// card; a change that does not touch the card (another session's mode)
// says nothing.
func TestASetsOriginShowsTheModeSetAfterItWasPosted(t *testing.T) {
	b := NewBoard()
	b.Describe(func(o *Origin) {
		o.Agent, o.CWD, o.Sessions = "Claude Code", "/home/ann", map[string]string{"s1": "/src/api"}
	})
	events := b.Subscribe(t.Context())
	said := &Context{Words: "I will raise the retry count."}
	tk := b.Open(Request{SessionID: "s1", Questions: []Question{q("Q?", "H", "a", "b")}, Round: 1, Context: said})
	asked := nextOf(t, events, EventAsked)
	require.NotNil(t, asked.Pending.Origin)
	assert.Equal(t, "Claude Code", asked.Pending.Origin.Agent)
	assert.Equal(t, "/src/api", asked.Pending.Origin.Folder)
	assert.Nil(t, asked.Pending.Origin.Mode)
	assert.Same(t, said, asked.Pending.Origin.Context)

	b.Describe(func(o *Origin) {
		o.Modes = map[string]SessionMode{"s1": {ID: "bypassPermissions", Unasked: "runs tools unasked"}}
	})
	ev := nextOf(t, events, EventOrigin)
	assert.Equal(t, tk.ID, ev.Pending.ID)
	require.NotNil(t, ev.Pending.Origin.Mode)
	assert.Equal(t, "bypassPermissions", ev.Pending.Origin.Mode.ID)
	p, _ := b.Get(tk.ID)
	require.NotNil(t, p.Origin.Mode)
	assert.Equal(t, "runs tools unasked", p.Origin.Mode.Unasked)
	assert.Equal(t, "bypassPermissions", b.List()[0].Origin.Mode.ID)
	assert.Nil(t, p.Origin.Modes, "a card gets its session's mode, not the table")

	b.Describe(func(o *Origin) { o.Modes["s2"] = SessionMode{ID: "plan"} })
	require.NoError(t, b.Settle(tk.ID, Result{Answers: []Answered{{Answer: Answer{Labels: []string{"a"}}}}}, ByEditor()))
	assert.Equal(t, EventReplied, (<-events).Type, "another session's mode does not redraw this card")
	hist, _ := b.History("s1")
	assert.Equal(t, "bypassPermissions", hist[0].Origin.Mode.ID, "the history says where a set came from")
}

// A board holding the sets of many askbridges (the hub's) holds an origin
// for each; once one is forgotten (its askbridge left) its sets keep the
// origin they had, and a set restored from a history keeps its own.
func TestEachSourceHasItsOriginAndItsSetsKeepItOnceForgotten(t *testing.T) {
	b := NewBoard()
	b.DescribeFrom("a1", func(o *Origin) { o.ID, o.Agent = "a1", "Claude Code" })
	b.DescribeFrom("a2", func(o *Origin) { o.ID, o.Agent = "a2", "Codex" })
	one := b.Open(Request{SessionID: "a1/s", Questions: []Question{q("Q?", "H", "a", "b")}, From: "a1"})
	two := b.Open(Request{SessionID: "a2/s", Questions: []Question{q("Q?", "H", "a", "b")}, From: "a2"})
	own := b.Open(Request{SessionID: "s", Questions: []Question{q("Q?", "H", "a", "b")}})
	p1, _ := b.Get(one.ID)
	p2, _ := b.Get(two.ID)
	p3, _ := b.Get(own.ID)
	assert.Equal(t, "Claude Code", p1.Origin.Agent)
	assert.Equal(t, "Codex", p2.Origin.Agent)
	assert.Nil(t, p3.Origin, "the board was told nothing of its own sets")

	b.Forget("a1")
	b.DescribeFrom("a1", func(o *Origin) { o.Agent = "someone else" })
	p1, _ = b.Get(one.ID)
	assert.Equal(t, "Claude Code", p1.Origin.Agent)

	gone := p1
	gone.ID, gone.State = "q99", StateAnswered
	require.NoError(t, b.Restore(gone))
	restored, _ := b.Get("q99")
	assert.Equal(t, "Claude Code", restored.Origin.Agent)
}
