//go:build unix

package harness

import (
	"encoding/json"
	"fmt"
)

// The calls every scenario makes, with the shapes editors send.

// NoFeatures is clientCapabilities of a client without fs, terminal or
// elicitation: what most ACP clients look like to an agent.
const NoFeatures = `{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}`

// FormElicitation is NoFeatures plus form elicitation.
const FormElicitation = `{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false,"elicitation":{"form":{}}}`

// Initialize sends initialize with caps as clientCapabilities.
func (r *Run) Initialize(caps string) (json.RawMessage, error) {
	return r.Call("initialize", map[string]any{
		"protocolVersion":    1,
		"clientCapabilities": json.RawMessage(caps),
		"clientInfo":         map[string]any{"name": "askbridge-live", "version": "1.0.0"},
	})
}

// NewSession opens a session in the run's home and returns its id.
func (r *Run) NewSession() (string, error) {
	res, err := r.Call("session/new", map[string]any{"cwd": r.Home, "mcpServers": []any{}})
	if err != nil {
		return "", err
	}
	var out struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(res, &out); err != nil || out.SessionID == "" {
		return "", fmt.Errorf("session/new: no sessionId in %s", res)
	}
	return out.SessionID, nil
}

// Prompt sends one text prompt and returns the stop reason.
func (r *Run) Prompt(session, text string) (string, error) {
	res, err := r.Call("session/prompt", map[string]any{
		"sessionId": session,
		"prompt":    []any{map[string]any{"type": "text", "text": text}},
	})
	if err != nil {
		return "", err
	}
	var out struct {
		StopReason string `json:"stopReason"`
	}
	if err := json.Unmarshal(res, &out); err != nil {
		return "", fmt.Errorf("session/prompt: %v in %s", err, res)
	}
	return out.StopReason, nil
}

// Cancel sends session/cancel.
func (r *Run) Cancel(session string) error {
	return r.Notify("session/cancel", map[string]any{"sessionId": session})
}

// Turn is initialize, session/new and one prompt: the common scenario.
// It returns the session id and the stop reason.
func (r *Run) Turn(caps, text string) (session, stop string, err error) {
	if _, err = r.Initialize(caps); err != nil {
		return "", "", err
	}
	if session, err = r.NewSession(); err != nil {
		return "", "", err
	}
	stop, err = r.Prompt(session, text)
	return session, stop, err
}
