package adapter

import (
	"errors"
	"fmt"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// route is what the bridge does with one claimed message: what becomes of
// the message on the wire, and how askbridge asks its set when it does.
type route struct {
	wire wire
	ask  asker
	// decline: the client's -32601 to the watched request hands the set to
	// askbridge, on the ticket already on the board.
	decline bool
}

// wire is what becomes of a claimed message.
type wire int

const (
	take    wire = iota // off the wire: askbridge asks and answers the agent
	drop                // off the wire, unanswered: a notification nobody can reply to
	pass                // on to the client, nothing more (a notification it shows itself)
	observe             // on to the client, and askbridge asks too; the agent is answered another way
	watch               // on to the client, and watched on the board (watch.go)
	forward             // on to the client; askbridge asks only on its -32601
)

// asker is how askbridge asks a set.
type asker int

const (
	viaRequests   asker = iota // a permission request per question
	viaForm                    // one form, to a client that renders forms
	viaBoard                   // the board only, a round of the turn (--questions desk)
	viaBoardAlone              // the board only, no round (dialect.Board)
)

// route turns a claim's mode and the bridge's state (what the client
// renders, --questions desk, whether the message is a request) into what
// happens: the one place the modes are read. The claim passed check.
func (b *Bridge) route(c *dialect.Claim, request bool) route {
	mode := c.Mode
	desk := mode == dialect.Board || c.Approval == nil && b.opts.Questions == QuestionsDesk
	forms := b.ClientRendersForms()
	var r route
	switch {
	case mode == dialect.Board:
		r.ask = viaBoardAlone
	case desk:
		r.ask = viaBoard
	case (mode == dialect.AskForm || mode == dialect.ExtensionForm) && forms:
		r.ask = viaForm
	}
	extension := mode == dialect.Extension || mode == dialect.ExtensionForm
	watched := !desk && (mode == dialect.Mirror || extension || mode == dialect.Render && forms)
	switch {
	case watched && !request:
		r.wire = pass
	case watched:
		r.wire, r.decline = watch, extension
	case mode != dialect.Observe && !request:
		r.wire = drop
	case mode == dialect.Forward && !desk:
		r.wire = forward
	case mode == dialect.Observe:
		r.wire = observe
	}
	return r
}

// check says why the bridge cannot serve a claim as its mode says, or nil
// when it can; request says the claimed message has an id. The bridge
// refuses a claim that fails it, the way ReverseProxy refuses a
// misconfigured hook: logged, and a request gets an error.
func check(c *dialect.Claim, request bool) error {
	var errs []error
	if !c.Mode.Known() {
		errs = append(errs, fmt.Errorf("unknown mode %v", c.Mode))
	}
	if c.Questions == nil {
		errs = append(errs, errors.New("no Questions"))
	}
	if c.Reply == nil {
		errs = append(errs, errors.New("no Reply"))
	}
	switch c.Mode {
	case dialect.Render, dialect.Mirror, dialect.Extension, dialect.ExtensionForm:
		if c.ReadResponse == nil {
			errs = append(errs, fmt.Errorf("mode %v reads the client's answer, and the claim has no ReadResponse", c.Mode))
		}
	}
	switch c.Mode {
	case dialect.Extension, dialect.ExtensionForm, dialect.Forward:
		if !request {
			errs = append(errs, fmt.Errorf("mode %v waits for the client's -32601, which a notification never gets", c.Mode))
		}
	}
	return errors.Join(errs...)
}
