package prompt

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const single = `{"sessionId":"s","toolCall":{"toolCallId":"t","title":"Database","content":[{"type":"content","content":{"type":"text","text":"Which database?\n  - Postgres: relational\n  - SQLite"}}]},"options":[{"kind":"allow_once","name":"Postgres - relational","optionId":"Postgres"},{"kind":"allow_once","name":"SQLite","optionId":"SQLite"},{"kind":"allow_once","name":"Other (type custom answer)","optionId":"__other__"}],"_meta":{"askUserQuestion":{"multiSelect":false,"index":0,"total":1,"round":1}}}`

const multi = `{"sessionId":"s","toolCall":{"toolCallId":"t","title":"Languages","content":[{"type":"content","content":{"type":"text","text":"Which languages?"}}]},"options":[{"kind":"allow_once","name":"Go","optionId":"Go"},{"kind":"allow_once","name":"Rust","optionId":"Rust"},{"kind":"allow_once","name":"C","optionId":"C"},{"kind":"allow_once","name":"Other (type custom answer)","optionId":"__other__"}],"_meta":{"askUserQuestion":{"multiSelect":true,"index":0,"total":1,"round":2}}}`

func answer(t *testing.T, input, params string) (string, string) {
	t.Helper()
	var out strings.Builder
	resp, err := Answer(context.Background(), NewPlain(strings.NewReader(input), &out), []byte(params))
	require.NoError(t, err)
	return string(resp), out.String()
}

func TestPlainSingle(t *testing.T) {
	resp, shown := answer(t, "2\n", single)
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"SQLite"}}`, resp)
	assert.Contains(t, shown, "[Database] Which database?\n  1. Postgres - relational\n  2. SQLite\n  0. Other (type custom answer)\nEnter number or 0 for custom: ")
}

func TestPlainMultiAndRound(t *testing.T) {
	resp, shown := answer(t, "3, 1\n", multi)
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"C","_meta":{"selectedOptionIds":["C","Go"]}}}`, resp)
	assert.Contains(t, shown, "Round 2: Which languages?")
	assert.Contains(t, shown, "Enter numbers separated by commas (e.g. 1,3)")
}

func TestPlainOther(t *testing.T) {
	resp, _ := answer(t, "0\nMariaDB\n", single)
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"MariaDB"}}}`, resp)
	resp, _ = answer(t, "1,0\nZig\n", multi)
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"Go","_meta":{"selectedOptionIds":["Go","__other__"],"customText":"Zig"}}}`, resp)
}

func TestPlainInvalidInputAsksAgainThenTakesTheFirstOption(t *testing.T) {
	resp, shown := answer(t, "7\nabc\n2\n", single)
	assert.Contains(t, resp, `"optionId":"SQLite"`, "a valid third try counts")
	assert.Equal(t, 2, strings.Count(shown, "Invalid answer"))

	resp, shown = answer(t, "7\n1,2\n\n", single)
	assert.Contains(t, resp, `"optionId":"Postgres"`)
	assert.Contains(t, shown, `Warning: no valid answer after 3 tries; taking the first option, "Postgres - relational".`)
}

func TestPlainEndOfInputCancels(t *testing.T) {
	resp, _ := answer(t, "", single)
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, resp)
}

func TestParseRejectsBadParams(t *testing.T) {
	_, err := Parse([]byte(`{"options":[]}`))
	assert.EqualError(t, err, "permission request: no options")
	_, err = Parse([]byte(`[`))
	assert.Error(t, err)
}

// A prompt settled elsewhere (its ctx ends) stops waiting for a line and
// says so; the next line typed answers the next prompt.
func TestPlainWithdrawnWhileWaitingForALine(t *testing.T) {
	in, typed := io.Pipe()
	defer typed.Close()
	var out strings.Builder
	p := NewPlain(in, &out)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	resp, err := Answer(ctx, p, []byte(single))
	require.NoError(t, err)
	assert.JSONEq(t, `{"outcome":{"outcome":"cancelled"}}`, string(resp))
	assert.Contains(t, out.String(), "Enter number or 0 for custom: (settled elsewhere)\n")

	go io.WriteString(typed, "2\n")
	resp, err = Answer(context.Background(), p, []byte(single))
	require.NoError(t, err)
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"SQLite"}}`, string(resp))
}
