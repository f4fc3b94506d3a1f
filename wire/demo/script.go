package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"

	"github.com/askbridge/askbridge/permission"
)

//go:embed default.json
var defaultScript []byte

// Script is what the demo agent says and asks.
type Script struct {
	Prompt string            `json:"prompt"` // what the client sends as the user
	Intro  string            `json:"intro"`  // the agent's first message
	Rounds []json.RawMessage `json:"rounds"` // each an AskUserQuestion input {"questions":[…]}
	Outro  string            `json:"outro"`  // the agent's closing line, before the answers
}

// LoadScript reads a script file, or the built-in one for "".
func LoadScript(path string) (*Script, error) {
	b := defaultScript
	if path != "" {
		var err error
		if b, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("--script: %v", err)
		}
	}
	var s Script
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("script %s: %v", nameOf(path), err)
	}
	if len(s.Rounds) == 0 {
		return nil, fmt.Errorf("script %s: no rounds to ask", nameOf(path))
	}
	lim, err := permission.LimitsFromEnv()
	if err != nil {
		return nil, err
	}
	for i, r := range s.Rounds {
		qs, err := permission.DecodeAskInput(r)
		if err == nil {
			err = permission.Validate(qs, lim)
		}
		if err != nil {
			return nil, fmt.Errorf("script %s: rounds[%d]: %v", nameOf(path), i, err)
		}
	}
	if s.Prompt == "" {
		s.Prompt = "Let's start."
	}
	return &s, nil
}

func nameOf(path string) string {
	if path == "" {
		return "(built-in)"
	}
	return path
}
