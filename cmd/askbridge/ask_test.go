package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ask(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Setenv("ASKBRIDGE_SOCKET", "")
	var out, errOut bytes.Buffer
	code = runAsk(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

const dbInput = `{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false}]}`

func TestAskPrintsAnswersByHeader(t *testing.T) {
	code, out, _ := ask(t, "2\n", dbInput)
	assert.Equal(t, 0, code)
	assert.JSONEq(t, `{"answers":{"Database":"SQLite"}}`, out)

	code, out, _ = ask(t, "1,3\n", `{"questions":[{"question":"Which?","header":"Langs","multiSelect":true,"options":[{"label":"Go"},{"label":"Rust"},{"label":"C"}]}]}`)
	assert.Equal(t, 0, code)
	assert.JSONEq(t, `{"answers":{"Langs":"Go, C"}}`, out)

	code, out, _ = ask(t, "0\nMariaDB\n", dbInput)
	assert.Equal(t, 0, code)
	assert.JSONEq(t, `{"answers":{"Database":"Other (custom: MariaDB)"}}`, out)
}

func TestAskFollowUpsAreAskedAndReturnedByHeader(t *testing.T) {
	input := `{"questions":[{"question":"Which auth?","header":"Auth","options":[{"label":"OAuth"},{"label":"None"}],"followUps":{"OAuth":[{"question":"Which provider?","header":"Provider","options":[{"label":"GitHub"},{"label":"Google"}]}]}}]}`
	code, out, _ := ask(t, "1\n2\n", input)
	assert.Equal(t, 0, code)
	assert.JSONEq(t, `{"answers":{"Auth":"OAuth","Provider":"Google"}}`, out)
}

func TestAskCancelled(t *testing.T) {
	code, out, _ := ask(t, "", dbInput)
	assert.Equal(t, 130, code)
	assert.JSONEq(t, `{"cancelled":true}`, out)
}

func TestAskReadsJSONFromStdinWithDash(t *testing.T) {
	code, _, errOut := ask(t, dbInput, "-")
	// The JSON took stdin; with no terminal to ask on, the question is cancelled.
	assert.Equal(t, 130, code, errOut)
}

func TestAskErrors(t *testing.T) {
	usage := `Usage: askbridge ask '{"questions":[...]}'` + "\n"
	tests := []struct {
		name   string
		args   []string
		env    map[string]string
		stderr string
	}{
		{"missing", nil, nil, "Error: Missing JSON parameter\n" + usage},
		{"empty stdin", []string{"-"}, nil, "Error: Missing JSON parameter\n" + usage},
		{"not JSON", []string{`{"questions":`}, nil, "Error: Invalid JSON format\n" + usage},
		{"long header", []string{`{"questions":[{"question":"Q?","header":"Thirteen char","options":[{"label":"a"},{"label":"b"}]}]}`}, nil,
			"Error: Validation failed\n- questions[0].header: String must contain at most 12 character(s)\n"},
		{"every violation", []string{`{"questions":[{"question":"","header":"H","options":[{"label":"a"},{"label":"a"}]},{"question":"Q","header":"H","options":[{"label":"x"}]}]}`}, nil,
			"Error: Validation failed\n- questions[0].question: String must contain at least 1 character(s)\n- questions[0].options[1].label: duplicate label \"a\"\n- questions[1].header: duplicate header \"H\" (also at questions[0]): answers are keyed by header, so each question needs its own\n- questions[1].options: must have 2-4 items\n"},
		{"duplicate headers", []string{`{"questions":[{"question":"Which database?","header":"Choice","options":[{"label":"a"},{"label":"b"}]},{"question":"Which cache?","header":"Choice","options":[{"label":"a"},{"label":"b"}]}]}`}, nil,
			"Error: Validation failed\n- questions[1].header: duplicate header \"Choice\" (also at questions[0]): answers are keyed by header, so each question needs its own\n"},
		{"no questions", []string{`{"questions":[]}`}, nil, "Error: Validation failed\n- questions: must have 1-4 items\n"},
		{"wrong type", []string{`{"questions":[{"question":"Q","header":"H","options":"a,b"}]}`}, nil,
			"Error: Validation failed\n- questions[0].options: expected an array of options, got a string\n"},
		{"ASK_MAX_QUESTIONS", []string{`{"questions":[{"question":"1","header":"H","options":[{"label":"a"},{"label":"b"}]},{"question":"2","header":"I","options":[{"label":"a"},{"label":"b"}]}]}`},
			map[string]string{"ASK_MAX_QUESTIONS": "1"}, "Error: Validation failed\n- questions: must have 1-1 items\n"},
		{"ASK_MAX_OPTIONS", []string{`{"questions":[{"question":"1","header":"H","options":[{"label":"a"},{"label":"b"},{"label":"c"}]}]}`},
			map[string]string{"ASK_MAX_OPTIONS": "2"}, "Error: Validation failed\n- questions[0].options: must have 2-2 items\n"},
		{"ASK_HEADER_MAX_LENGTH", []string{`{"questions":[{"question":"1","header":"Header","options":[{"label":"a"},{"label":"b"}]}]}`},
			map[string]string{"ASK_HEADER_MAX_LENGTH": "3"}, "Error: Validation failed\n- questions[0].header: String must contain at most 3 character(s)\n"},
		{"ASK_QUESTION_MAX_LENGTH", []string{`{"questions":[{"question":"Long?","header":"H","options":[{"label":"a"},{"label":"b"}]}]}`},
			map[string]string{"ASK_QUESTION_MAX_LENGTH": "4"}, "Error: Validation failed\n- questions[0].question: String must contain at most 4 character(s)\n"},
		{"bad limit", []string{dbInput}, map[string]string{"ASK_MAX_OPTIONS": "lots"}, "Error: ASK_MAX_OPTIONS=\"lots\": want a whole number of at least 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			code, out, errOut := ask(t, "", tt.args...)
			assert.Equal(t, 1, code)
			assert.Empty(t, out, "stdout carries only the result")
			assert.Equal(t, tt.stderr, errOut)
		})
	}
}

func TestAskThroughTheSocketReachesTheClient(t *testing.T) {
	testenv.SkipUnderWine(t, testenv.NoUnixSockets)
	c := startClient(t)
	s := c.setup()
	input := `{"questions":[{"question":"Deploy now?","header":"Deploy","options":[{"label":"Yes"},{"label":"Later"}]}]}`
	c.prompt(s, "shell", map[string]any{"argv": []string{askbridgeBin, "ask", input}})
	req := c.permissionRequest()
	assert.Equal(t, s, req["params"].(map[string]any)["sessionId"], "the most recently active session")
	c.reply(req, `{"outcome":{"outcome":"selected","optionId":"Later"}}`)
	saw := c.agentSaw()
	assert.Contains(t, saw, `exit=0 stdout={"answers":{"Deploy":"Later"}}`)

	c.prompt(s, "shell", map[string]any{"argv": []string{askbridgeBin, "ask", input}})
	c.reply(c.permissionRequest(), `{"outcome":{"outcome":"cancelled"}}`)
	assert.Contains(t, c.agentSaw(), `exit=130 stdout={"cancelled":true}`)

	c.prompt(s, "shell", map[string]any{"argv": []string{askbridgeBin, "ask", `{"questions":[{"question":"Q","header":"H","options":[{"label":"x"}]}]}`}})
	assert.Contains(t, c.agentSaw(), "exit=1 stdout= stderr=Error: Validation failed\n- questions[0].options: must have 2-4 items")
}

func TestDemoWithPipedAnswers(t *testing.T) {
	cmd := exec.Command(askbridgeBin, "demo")
	cmd.Stdin = strings.NewReader("2\n1,3\n0\nmy-service\n")
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	text := string(out)
	assert.Contains(t, text, "[Database (1/3)] Which database should the service use?")
	assert.Contains(t, text, "Which database should the service use? → SQLite")
	assert.Contains(t, text, "Which features do you want from day one? → Auth, Admin UI")
	assert.Contains(t, text, "→ my-service")
	assert.Contains(t, text, "(turn ended: end_turn)")
}

func TestDemoScriptErrorsAreClear(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.json"
	os.WriteFile(bad, []byte(`{"rounds":[{"questions":[{"question":"Q","header":"H","options":[{"label":"x"}]}]}]}`), 0o600)
	out, err := exec.Command(askbridgeBin, "demo", "--script", bad).CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "rounds[0]: questions[0].options: must have 2-4 items")
}
