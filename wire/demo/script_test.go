package demo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheBuiltInScriptAsksASingleAMultiAndAnOtherQuestion(t *testing.T) {
	s, err := LoadScript("")
	require.NoError(t, err)
	require.Len(t, s.Rounds, 1)
	assert.Contains(t, string(s.Rounds[0]), `"multiSelect": true`)
	assert.Contains(t, string(s.Rounds[0]), `choose Other to type a name`)
}

func TestLoadScriptErrorsNameTheProblem(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	_, err := LoadScript(filepath.Join(dir, "missing.json"))
	assert.ErrorContains(t, err, "--script")
	_, err = LoadScript(write("bad.json", `{`))
	assert.ErrorContains(t, err, "bad.json")
	_, err = LoadScript(write("empty.json", `{"rounds":[]}`))
	assert.ErrorContains(t, err, "no rounds to ask")
	_, err = LoadScript(write("invalid.json", `{"rounds":[{"questions":[{"question":"Q","header":"H","options":[{"label":"a"},{"label":"a"}]}]}]}`))
	assert.ErrorContains(t, err, `rounds[0]: questions[0].options[1].label: duplicate label "a"`)
	s, err := LoadScript(write("ok.json", `{"rounds":[{"questions":[{"question":"Q","header":"H","options":[{"label":"a"},{"label":"b"}]}]}]}`))
	require.NoError(t, err)
	assert.Equal(t, "Let's start.", s.Prompt, "a default prompt")
}
