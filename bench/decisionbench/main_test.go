//go:build unix

package main

import (
	"github.com/askbridge/askbridge/route/desk/softkey"

	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bench's approvals are real ones: its software passkey pairs with a
// desk's page and its assertion lets an approval through, while another
// key's assertion for the same challenge is refused by the server.
func TestPagePasskeyIsCheckedByTheServer(t *testing.T) {
	board := permission.NewBoard()
	s, err := desk.Listen("127.0.0.1:0", board, desk.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code, _ := s.Devices().NewCode()
	p, err := pairPage(ctx, s.URL(), code)
	require.NoError(t, err)

	approve := func() (*permission.Ticket, error) {
		method, params := decision(0)
		require.Equal(t, "session/request_permission", method)
		tc, _ := json.Marshal(params["toolCall"])
		tk := board.Open(permission.Request{SessionID: "s1", ToolCallID: "call-0", Approval: &permission.Approval{ToolCall: tc,
			Options: []permission.ApprovalOption{{OptionID: "allow", Name: "Allow", Kind: "allow_once"}, {OptionID: "reject", Name: "Reject", Kind: "reject_once"}}},
			Questions: []permission.Question{{Header: "Approval: execute", Question: "rm -rf build-0", Kind: permission.Fixed, Options: []permission.Option{{Label: "Allow"}, {Label: "Reject"}}}}})
		s, err := p.next(ctx, map[string]bool{})
		require.NoError(t, err)
		require.Equal(t, "approval", s.Kind)
		return tk, p.decide(ctx, s)
	}
	tk, err := approve()
	require.NoError(t, err)
	<-tk.Done()
	assert.Equal(t, []string{"Allow"}, tk.Result().Answers[0].Answer.Labels)

	p.passkey, err = softkey.New(p.base) // not the paired device's
	require.NoError(t, err)
	tk, err = approve()
	require.ErrorContains(t, err, "403")
	select {
	case <-tk.Done():
		t.Fatal("approved with another passkey")
	default:
	}
}

func TestPctIsNearestRank(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	assert.Equal(t, 50*time.Millisecond, pct(d, 0.5))
	assert.Equal(t, 95*time.Millisecond, pct(d, 0.95))
	assert.Equal(t, 100*time.Millisecond, pct(d, 1))
	assert.Equal(t, 3*time.Millisecond, pct([]time.Duration{3 * time.Millisecond}, 0.95))
}
