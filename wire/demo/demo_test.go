package demo

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/prompt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// user is a scripted prompter: it answers with replies in turn, or
// cancels when they run out, and notes each request and what the screen
// showed when it was asked.
type user struct {
	out     *syncBuffer
	replies []prompt.Reply
	mu      sync.Mutex
	asked   []prompt.Request
	screens []string
}

func (u *user) Prompt(_ context.Context, r prompt.Request) (prompt.Reply, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.asked = append(u.asked, r)
	u.screens = append(u.screens, u.out.String())
	if len(u.replies) == 0 {
		return prompt.Reply{}, prompt.ErrCancelled
	}
	reply := u.replies[0]
	u.replies = u.replies[1:]
	return reply, nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// playDemo runs what `askbridge demo` runs, in one process: the demo
// agent, askbridge's bridge, and the demo client asking u.
func playDemo(t *testing.T, s *Script, u *user) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	clientToRelay, relayIn := io.Pipe()
	relayToClient, relayOut := io.Pipe()
	agentToRelay, agentOut := io.Pipe()
	relayToAgent, agentIn := io.Pipe()
	relay := relay.New(relay.Config{ClientIn: clientToRelay, ClientOut: relayOut, AgentIn: agentToRelay, AgentOut: agentIn})
	bridge := adapter.NewBridge(adapter.Options{Advertise: true, MaxRounds: 10, Limits: permission.DefaultLimits()})
	cleanup := bridge.Setup(relay)
	relay.Start()
	agentDone := make(chan error, 1)
	go func() { agentDone <- RunAgent(ctx, s, relayToAgent, agentOut) }()

	client := &Client{Prompter: u, Out: u.out}
	err := client.Run(ctx, s.Prompt, relayToClient, relayIn)
	relayIn.Close()
	<-relay.ClientDone()
	cleanup()
	agentIn.Close()
	require.NoError(t, <-agentDone)
	agentOut.Close()
	<-relay.AgentDone()
	relayOut.Close()
	require.NoError(t, err)
	return u.out.String()
}

func TestTheDemoQuotesTheAnswersTheUserGave(t *testing.T) {
	s, err := LoadScript("")
	require.NoError(t, err)
	u := &user{out: &syncBuffer{}, replies: []prompt.Reply{
		{IDs: []string{"SQLite"}},
		{IDs: []string{"Auth", "Admin UI"}},
		{IDs: []string{"__other__"}, Custom: "my-service"},
	}}
	out := playDemo(t, s, u)

	assert.True(t, strings.HasPrefix(out, "you › Set up a new web service for me.\n\nagent › I'll scaffold the service."), out)
	assert.Contains(t, out, "  Which database should the service use? → SQLite\n")
	assert.Contains(t, out, "  Which features do you want from day one? → Auth, Admin UI\n")
	assert.Contains(t, out, "  What should the service be called? Pick one or choose Other to type a name. → my-service")
	assert.True(t, strings.HasSuffix(out, "\n\n(turn ended: end_turn)\n"), out)

	require.Len(t, u.asked, 3)
	assert.Equal(t, "Database (1/3)", u.asked[0].Title)
	assert.True(t, u.asked[1].Multi, "the features question is multi-select")
	for i, screen := range u.screens {
		assert.Contains(t, screen, "agent › I'll scaffold the service.", "question %d is asked after the agent's message is shown", i)
	}
}

func TestTheDemoStopsWhenTheUserCancels(t *testing.T) {
	s, err := LoadScript("")
	require.NoError(t, err)
	u := &user{out: &syncBuffer{}}
	out := playDemo(t, s, u)
	assert.Len(t, u.asked, 1, "nothing more is asked")
	assert.Contains(t, out, "You cancelled the questions ("+asktool.CancelMessage+"), so I'll stop here.")
	assert.NotContains(t, out, s.Outro)
	assert.True(t, strings.HasSuffix(out, "(turn ended: end_turn)\n"), out)
}
