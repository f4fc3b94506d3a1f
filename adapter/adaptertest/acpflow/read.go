package acpflow

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// Permission is what a test reads of a session/request_permission.
type Permission struct {
	ToolCall struct {
		ToolCallID string `json:"toolCallId"`
		Title      string `json:"title"`
	} `json:"toolCall"`
	Options []struct {
		OptionID string `json:"optionId"`
	} `json:"options"`
}

// ReadPermission decodes the params of permission request req, and lists
// its option ids in order.
func ReadPermission(t *testing.T, req Msg) (p Permission, ids []string) {
	t.Helper()
	require.NoError(t, json.Unmarshal(req.Params, &p))
	for _, o := range p.Options {
		ids = append(ids, o.OptionID)
	}
	return p, ids
}

// ToolCallUpdates reads client-bound lines until the update of call with
// status, returning every line about call on the way.
func (h *Peers) ToolCallUpdates(t *testing.T, call, status string) []string {
	t.Helper()
	var out []string
	for {
		line := h.Client.Recv()
		if !strings.Contains(line, `"toolCallId":"`+call+`"`) {
			continue
		}
		out = append(out, line)
		if strings.Contains(line, `"status":"`+status+`"`) {
			return out
		}
	}
}

// OnBoard waits for board to list one set, and returns it.
func OnBoard(t *testing.T, board *permission.Board) permission.Pending {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if l := board.List(); len(l) == 1 {
			return l[0]
		}
		require.True(t, time.Now().Before(deadline), "the set never reached the board")
	}
}

// Settled waits for set id to leave board, and returns it.
func Settled(t *testing.T, board *permission.Board, id string) permission.Pending {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if p, ok := board.Get(id); ok && p.Result != nil {
			return p
		}
		require.True(t, time.Now().Before(deadline), "the set was never settled")
	}
}
