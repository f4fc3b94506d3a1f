package mcpask

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheOneToolIsListedWithTheLimitsInItsSchema(t *testing.T) {
	lim := permission.Limits{MaxQuestions: 2, MaxOptions: 3, HeaderMax: 8, QuestionMax: 100}
	cs := connect(t, Options{Limits: lim})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list.Tools, 1)
	tool := list.Tools[0]
	assert.Equal(t, ToolName, tool.Name)
	assert.Contains(t, tool.Description, "Ask instead of guessing when")
	assert.Contains(t, tool.Description, "Do not ask when")
	assert.Contains(t, tool.Description, "2 question(s) at most, each with 2-3 options")
	require.NotNil(t, tool.Annotations)
	assert.True(t, tool.Annotations.ReadOnlyHint)

	raw, err := json.Marshal(tool.InputSchema)
	require.NoError(t, err)
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(raw, &s))
	resolved, err := s.Resolve(nil)
	require.NoError(t, err)
	validate := func(input string) error {
		var v any
		require.NoError(t, json.Unmarshal([]byte(input), &v))
		return resolved.Validate(v)
	}
	assert.NoError(t, validate(`{"questions":[{"question":"Which?","header":"Database","multiSelect":true,"options":[{"label":"a","description":"A"},{"label":"b"}],"followUps":{"a":[{"question":"Then?","header":"Then","options":[{"label":"x"},{"label":"y"}]}]}}]}`))
	for name, input := range map[string]string{
		"no questions":                       `{}`,
		"too many":                           `{"questions":[{"question":"1","header":"H","options":[{"label":"a"},{"label":"b"}]},{"question":"2","header":"H","options":[{"label":"a"},{"label":"b"}]},{"question":"3","header":"H","options":[{"label":"a"},{"label":"b"}]}]}`,
		"long header":                        `{"questions":[{"question":"Q","header":"Database!","options":[{"label":"a"},{"label":"b"}]}]}`,
		"one option":                         `{"questions":[{"question":"Q","header":"H","options":[{"label":"a"}]}]}`,
		"four options":                       `{"questions":[{"question":"Q","header":"H","options":[{"label":"a"},{"label":"b"},{"label":"c"},{"label":"d"}]}]}`,
		"no label":                           `{"questions":[{"question":"Q","header":"H","options":[{"description":"a"},{"label":"b"}]}]}`,
		"bad follow-up":                      `{"questions":[{"question":"Q","header":"H","options":[{"label":"a"},{"label":"b"}],"followUps":{"a":[{"question":"Then?","options":[{"label":"x"},{"label":"y"}]}]}}]}`,
		"follow-up label not a string":       `{"questions":[{"question":"Q","header":"H","options":[{"label":"a"},{"label":"b"}],"followUps":{"a":[{"question":"Then?","header":"Then","options":[{"label":1},{"label":"y"}]}]}}]}`,
		"follow-up description not a string": `{"questions":[{"question":"Q","header":"H","options":[{"label":"a"},{"label":"b"}],"followUps":{"a":[{"question":"Then?","header":"Then","options":[{"label":"x","description":2},{"label":"y"}]}]}}]}`,
		"multiSelect string":                 `{"questions":[{"question":"Q","header":"H","multiSelect":"yes","options":[{"label":"a"},{"label":"b"}]}]}`,
	} {
		assert.Error(t, validate(input), name)
	}
}

func TestInitializeNamesAskbridgeAndTheTool(t *testing.T) {
	cs := connect(t, Options{})
	init := cs.InitializeResult()
	assert.Equal(t, "askbridge", init.ServerInfo.Name)
	assert.Contains(t, init.Instructions, ToolName)
	require.NotNil(t, init.Capabilities.Tools)
}
