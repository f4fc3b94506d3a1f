package main

import (
	"context"
	"encoding/json"

	acp "github.com/coder/acp-go-sdk"
)

// requestPermission is the scripted agent's own tool approval: P of the
// prompt's {"method":"session/request_permission","params":P} (its toolCall
// and options) sent to the client, and what came back said as JSON.
func (a *scriptedAgent) requestPermission(ctx context.Context, session acp.SessionId, params map[string]any) string {
	var req acp.RequestPermissionRequest
	raw, _ := json.Marshal(params)
	if err := json.Unmarshal(raw, &req); err != nil {
		return `{"error":"bad request_permission params"}`
	}
	req.SessionId = session
	resp, err := a.conn.RequestPermission(ctx, req)
	if err != nil {
		out, _ := json.Marshal(map[string]any{"error": err.Error()})
		return string(out)
	}
	out, _ := json.Marshal(resp)
	return string(out)
}
