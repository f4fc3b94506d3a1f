package permission

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// DecodeAskInput reads the AskUserQuestion input {"questions":[…]}, as
// _askbridge/ask and `askbridge ask` take it. Unknown fields are ignored;
// a value of the wrong type is an error naming its path.
func DecodeAskInput(raw []byte) ([]Question, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("input: invalid JSON: %v", err)
	}
	top, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input: expected an object with questions, got %s", typeName(v))
	}
	return decodeQuestions("questions", top["questions"], "multiSelect", 0)
}

// DecodeQuestions reads a list of questions in the AskUserQuestion shape
// from any decoded JSON value (as encoding/json decodes into an any), for
// dialects whose tools use it with another name for multi-select (multiKey:
// "multiSelect", or OpenCode's "multiple"). Errors name the path under path.
func DecodeQuestions(path string, v any, multiKey string) ([]Question, error) {
	return decodeQuestions(path, v, multiKey, 0)
}

func decodeQuestions(path string, v any, multiKey string, depth int) ([]Question, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s: expected an array of questions, got %s", path, typeName(v))
	}
	qs := make([]Question, 0, len(list))
	for i, item := range list {
		q, err := decodeQuestion(path+"["+strconv.Itoa(i)+"]", item, multiKey, depth)
		if err != nil {
			return nil, err
		}
		qs = append(qs, q)
	}
	return qs, nil
}

func decodeQuestion(path string, v any, multiKey string, depth int) (Question, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Question{}, fmt.Errorf("%s: expected an object, got %s", path, typeName(v))
	}
	var q Question
	var err error
	if q.Question, err = stringField(m, path, "question", true); err != nil {
		return q, err
	}
	if q.Header, err = stringField(m, path, "header", false); err != nil {
		return q, err
	}
	if mv, ok := m[multiKey]; ok && mv != nil {
		b, ok := mv.(bool)
		if !ok {
			return q, fmt.Errorf("%s.%s: expected a boolean, got %s", path, multiKey, typeName(mv))
		}
		q.Kind.Many = b
	}
	opts, ok := m["options"].([]any)
	if !ok {
		return q, fmt.Errorf("%s.options: expected an array of options, got %s", path, typeName(m["options"]))
	}
	for i, ov := range opts {
		op := path + ".options[" + strconv.Itoa(i) + "]"
		om, ok := ov.(map[string]any)
		if !ok {
			// A bare string is taken as a label: some models write options so.
			if s, isStr := ov.(string); isStr {
				q.Options = append(q.Options, Option{Label: s})
				continue
			}
			return q, fmt.Errorf("%s: expected an object, got %s", op, typeName(ov))
		}
		var o Option
		if o.Label, err = stringField(om, op, "label", true); err != nil {
			return q, err
		}
		if o.Description, err = stringField(om, op, "description", false); err != nil {
			return q, err
		}
		q.Options = append(q.Options, o)
	}
	if fv, ok := m["followUps"]; ok && fv != nil {
		fm, ok := fv.(map[string]any)
		if !ok {
			return q, fmt.Errorf("%s.followUps: expected an object from option label to questions, got %s", path, typeName(fv))
		}
		if depth >= MaxFollowUpDepth {
			return q, fmt.Errorf("%s.followUps: follow-ups may nest at most %d levels", path, MaxFollowUpDepth)
		}
		q.FollowUps = map[string][]Question{}
		for _, label := range sortedKeys(fm) {
			sub, err := decodeQuestions(path+".followUps["+strconv.Quote(label)+"]", fm[label], multiKey, depth+1)
			if err != nil {
				return q, err
			}
			q.FollowUps[label] = sub
		}
	}
	return q, nil
}

func stringField(m map[string]any, path, key string, required bool) (string, error) {
	v, ok := m[key]
	if !ok || v == nil {
		if required {
			return "", fmt.Errorf("%s.%s: required", path, key)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s.%s: expected a string, got %s", path, key, typeName(v))
	}
	return s, nil
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
