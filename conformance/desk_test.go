package conformance

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A desk entry of a recording becomes a desk line placed after the
// client's lines recorded before it, and survives Format and Parse.
func TestFromRecordingKeepsTheDesksAnswers(t *testing.T) {
	rec := []byte(`{"dir":"c2a","t":0.1,"msg":{"jsonrpc":"2.0","id":1,"method":"session/prompt"}}
{"dir":"a2c","t":0.2,"msg":{"jsonrpc":"2.0","id":0,"method":"_askbridge/ask"}}
{"dir":"a2c","askbridge":true,"t":0.3,"msg":{"jsonrpc":"2.0","id":"askbridge-1","method":"session/request_permission"}}
{"dir":"desk","t":0.4,"msg":{"session":"s1","round":1,"step":0,"questions":["Which database?"],"answers":[["Postgres"]]}}
{"dir":"a2c","askbridge":true,"t":0.5,"msg":{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"askbridge-1"}}}
{"dir":"c2a","t":0.6,"msg":{"jsonrpc":"2.0","id":"askbridge-1","result":{"outcome":{"outcome":"cancelled"}}}}
{"dir":"desk","t":0.7,"msg":{"session":"s1","round":2,"step":0,"questions":["Which database?"],"reject":true}}
`)
	f, err := FromRecording("r.jsonl", rec)
	require.NoError(t, err)
	require.Len(t, f.Client, 2)
	require.Len(t, f.Desk, 2)
	assert.Equal(t, 1, f.Desk[0].After, "given after the prompt, before the client's late answer")
	assert.Equal(t, 1, f.Desk[0].Asked, "and once the client was asked")
	assert.Equal(t, [][]string{{"Postgres"}}, f.Desk[0].Answers)
	assert.Equal(t, 2, f.Desk[1].After)
	assert.True(t, f.Desk[1].Reject)

	text := string(f.Format())
	assert.Contains(t, text, "-- desk --\n"+
		`{"after":1,"asked":1,"session":"s1","round":1,"step":0,"questions":["Which database?"],"answers":[["Postgres"]]}`+"\n"+
		`{"after":2,"asked":1,"session":"s1","round":2,"step":0,"questions":["Which database?"],"reject":true}`+"\n-- want-client --")
	back, err := Parse("x.txtar", []byte(text))
	require.NoError(t, err)
	assert.Equal(t, f.Desk, back.Desk)

	_, err = FromRecording("r.jsonl", []byte(`{"dir":"desk","t":0,"msg":{"session":"s1","round":1,"questions":["Q?"]}}`))
	assert.EqualError(t, err, "r.jsonl: line 1: a desk entry: 0 answers to 1 questions (or reject)")
}

func TestParseRejectsABadDeskSection(t *testing.T) {
	parse := func(desk string) error {
		_, err := Parse("x.txtar", []byte("-- client --\n{\"id\":1}\n-- agent --\n-- desk --\n"+desk))
		return err
	}
	assert.NoError(t, parse(`{"after":1,"session":"s","round":1,"step":1,"questions":["Q?"],"answers":[["a","typed"]]}`))
	for desk, want := range map[string]string{
		`{"after":1,"session":"s","round":1,"questions":["Q?"],"answer":[["a"]]}`:                `line 1: json: unknown field "answer"`,
		`{"after":0,"round":1,"questions":["Q?"],"reject":true}`:                                 "line 1: no session",
		`{"after":0,"session":"s","round":-1,"questions":["Q?"],"reject":true}`:                  "line 1: round must not be negative",
		`{"after":0,"session":"s","round":1,"questions":[],"reject":true}`:                       "line 1: no questions",
		`{"after":0,"session":"s","round":1,"questions":["Q?"],"answers":[[]]}`:                  "line 1: answers[0] is empty",
		`{"after":0,"session":"s","round":1,"questions":["Q?"],"answers":[["a"]],"reject":true}`: "line 1: a reject has no answers",
		`{"after":2,"session":"s","round":1,"questions":["Q?"],"reject":true}`:                   "line 1: after 2, but the client section has 1 lines",
		"{\"after\":1,\"session\":\"s\",\"round\":1,\"questions\":[\"Q?\"],\"reject\":true}\n" +
			`{"after":0,"session":"s","round":2,"questions":["Q?"],"reject":true}`: "line 2: after 0 comes before the line above's 1",
	} {
		assert.EqualError(t, parse(desk), "x.txtar: section desk: "+want, desk)
	}
}

// A desk line waits for the client to be where it was when the desk acted:
// its lines sent and askbridge's requests received, or nothing more coming.
func TestDeskLineWaitsForTheClientToCatchUp(t *testing.T) {
	s := newSide("client", nil, false)
	line := DeskLine{After: 3, Asked: 1}
	s.sent, s.lastGot = 3, time.Now()
	assert.False(t, s.readyFor(line), "the question not yet shown in the editor")
	s.asked = 1
	assert.True(t, s.readyFor(line))
	s.sent = 2
	assert.False(t, s.readyFor(line), "the client's third line not yet out")
	s.sent, s.asked, s.lastGot = 3, 0, time.Now().Add(-deskQuiet-time.Second)
	assert.True(t, s.readyFor(line), "an askbridge that no longer shows it still gets the answer")
}
