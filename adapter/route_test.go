package adapter

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
	"github.com/askbridge/askbridge/permission"
)

// broken is the probe with its claim changed by edit: a dialect whose
// claim its mode cannot serve.
type broken struct {
	probe
	edit func(*dialect.Claim)
}

func (b *broken) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	c := b.probe.Claim(h, m)
	b.edit(c)
	return c
}

func readAnything(json.RawMessage) permission.Result { return permission.Result{} }

// refusedHarness is a bridge speaking only d, whose client renders forms
// (so a Render claim would be watched), and its log.
func refusedHarness(t *testing.T, d dialect.Dialect) (*bridgeHarness, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	h, _ := formsClient(t, Options{Dialects: []dialect.Dialect{d}, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	return h, logs
}

// A claim its mode cannot serve is refused before it is routed: the agent
// gets an error at once (never a hang, a forwarded request nobody reads,
// or a panic), and the log says which dialect and why.
func TestAClaimItsModeCannotServeIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*dialect.Claim)
		why  string
	}{
		{"unknown mode", func(c *dialect.Claim) { c.Mode = dialect.Mode(99) }, "unknown mode Mode(99)"},
		{"render without ReadResponse", func(c *dialect.Claim) { c.Mode = dialect.Render }, "mode render reads the client's answer"},
		{"mirror without ReadResponse", func(c *dialect.Claim) { c.Mode = dialect.Mirror }, "mode mirror reads the client's answer"},
		{"extension without ReadResponse", func(c *dialect.Claim) { c.Mode = dialect.Extension }, "mode extension reads the client's answer"},
		{"extension-form without ReadResponse", func(c *dialect.Claim) { c.Mode = dialect.ExtensionForm }, "mode extension-form reads the client's answer"},
		{"no Questions", func(c *dialect.Claim) { c.Questions = nil }, "no Questions"},
		{"no Reply", func(c *dialect.Claim) { c.Reply = nil }, "no Reply"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, logs := refusedHarness(t, &broken{edit: tc.edit})
			h.Agent.Send(`{"jsonrpc":"2.0","id":7,"method":"x/ask","params":{}}`)
			reply := h.AgentReply(t, "7")
			require.NotNil(t, reply.Error, "the agent gets an error")
			assert.Equal(t, relay.CodeInternalError, reply.Error.Code)
			assert.Contains(t, reply.Error.Message, "the probe dialect cannot serve x/ask")
			assert.Contains(t, reply.Error.Message, tc.why)
			assert.Contains(t, logs.String(), "probe: refused a claim its mode cannot serve")
			// Nothing reached the client: the next line it sees is this.
			h.Agent.Send(`{"jsonrpc":"2.0","method":"ping/after"}`)
			assert.Equal(t, "ping/after", decode(t, h.Client.Recv()).Method)
		})
	}
}

// An extension mode waits for the client's -32601, which a notification
// never gets: such a claim is refused and the notification goes nowhere,
// logged (Extension would have passed it on unwatched, Forward dropped it
// without a word).
func TestAnExtensionModeOnANotificationIsRefused(t *testing.T) {
	for _, mode := range []dialect.Mode{dialect.Extension, dialect.ExtensionForm, dialect.Forward} {
		t.Run(mode.String(), func(t *testing.T) {
			h, logs := refusedHarness(t, &broken{edit: func(c *dialect.Claim) { c.Mode, c.ReadResponse = mode, readAnything }})
			h.Agent.Send(`{"jsonrpc":"2.0","method":"x/ask","params":{}}`)
			h.Agent.Send(`{"jsonrpc":"2.0","method":"ping/after"}`)
			assert.Equal(t, "ping/after", decode(t, h.Client.Recv()).Method)
			assert.Contains(t, logs.String(), "probe: refused a claim its mode cannot serve")
			assert.Contains(t, logs.String(), fmt.Sprintf("mode %v waits for the client's -32601", mode))
		})
	}
}

// A sound claim of each mode passes the check: the check refuses only
// what a mode cannot serve.
func TestASoundClaimOfEachModePassesTheCheck(t *testing.T) {
	for m := dialect.Ask; m.Known(); m++ {
		c := (&probe{mode: m}).Claim(&Bridge{}, &relay.Message{})
		c.ReadResponse = readAnything
		assert.NoError(t, check(c, true), "mode %v", m)
	}
}

// The routing table: what each mode becomes, by what the client renders,
// --questions desk, and whether the message is a request.
func TestRouteTurnsAModeAndTheBridgesStateIntoWhatHappens(t *testing.T) {
	const req, note = true, false
	for _, tc := range []struct {
		mode            dialect.Mode
		forms, desk, id bool
		approval        bool
		want            route
	}{
		{mode: dialect.Ask, id: req, want: route{wire: take, ask: viaRequests}},
		{mode: dialect.Ask, id: note, want: route{wire: drop}},
		{mode: dialect.Ask, desk: true, id: req, want: route{wire: take, ask: viaBoard}},
		{mode: dialect.AskForm, forms: true, id: req, want: route{wire: take, ask: viaForm}},
		{mode: dialect.AskForm, id: req, want: route{wire: take, ask: viaRequests}},
		{mode: dialect.Render, forms: true, id: req, want: route{wire: watch}},
		{mode: dialect.Render, forms: true, id: note, want: route{wire: pass}},
		{mode: dialect.Render, id: req, want: route{wire: take, ask: viaRequests}},
		{mode: dialect.Render, forms: true, desk: true, id: req, want: route{wire: take, ask: viaBoard}},
		{mode: dialect.Observe, id: note, want: route{wire: observe}},
		{mode: dialect.Observe, desk: true, id: req, want: route{wire: observe, ask: viaBoard}},
		{mode: dialect.Mirror, id: req, want: route{wire: watch}},
		{mode: dialect.Mirror, id: req, desk: true, approval: true, want: route{wire: watch}},
		{mode: dialect.Mirror, id: req, desk: true, want: route{wire: take, ask: viaBoard}},
		{mode: dialect.Board, forms: true, id: req, want: route{wire: take, ask: viaBoardAlone}},
		{mode: dialect.Board, desk: true, id: req, want: route{wire: take, ask: viaBoardAlone}},
		{mode: dialect.Extension, forms: true, id: req, want: route{wire: watch, decline: true}},
		{mode: dialect.ExtensionForm, forms: true, id: req, want: route{wire: watch, ask: viaForm, decline: true}},
		{mode: dialect.ExtensionForm, id: req, want: route{wire: watch, ask: viaRequests, decline: true}},
		{mode: dialect.ExtensionForm, forms: true, desk: true, id: req, want: route{wire: take, ask: viaBoard}},
		{mode: dialect.Forward, forms: true, id: req, want: route{wire: forward, ask: viaRequests}},
		{mode: dialect.Forward, desk: true, id: req, want: route{wire: take, ask: viaBoard}},
	} {
		b := &Bridge{clientForm: tc.forms}
		if tc.desk {
			b.opts.Questions = QuestionsDesk
		}
		c := &dialect.Claim{Mode: tc.mode}
		if tc.approval {
			c.Approval = &permission.Approval{}
		}
		assert.Equal(t, tc.want, b.route(c, tc.id), "%v forms=%v desk=%v request=%v approval=%v", tc.mode, tc.forms, tc.desk, tc.id, tc.approval)
	}
}

// askOnSocket is a broken dialect hooked on the ask socket's method.
type askOnSocket struct{ broken }

func (*askOnSocket) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: askwire.Method}}
}

// An ask over the socket is claimed as the agent's would be, and checked
// the same way: `askbridge ask` gets the error, nothing is asked.
func TestAnAskOverTheSocketWhoseClaimCannotBeServedIsRefused(t *testing.T) {
	logs := &syncBuffer{}
	d := &askOnSocket{broken{edit: func(c *dialect.Claim) { c.Mode = dialect.Mode(42) }}}
	b := NewBridge(Options{Dialects: []dialect.Dialect{d}, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	_, err := b.askFromSocket(t.Context(), json.RawMessage(`{}`))
	var e *relay.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, relay.CodeInternalError, e.Code)
	assert.Contains(t, e.Message, "unknown mode Mode(42)")
	assert.Contains(t, logs.String(), "probe: refused a claim its mode cannot serve")
}
