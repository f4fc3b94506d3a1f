package adapter

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/permission"
)

// Questions says where the agent's questions are asked.
type Questions int

const (
	// QuestionsClient, the zero value: in the client, and on the board for
	// the desk, the hub and the notifiers when they run; the first answer
	// wins.
	QuestionsClient = Questions(dialect.ApprovalsClient)
	// QuestionsMirror is QuestionsClient said explicitly: the client and
	// the board race.
	QuestionsMirror = Questions(dialect.ApprovalsMirror)
	// QuestionsDesk: on the board only, never sent to the client (for
	// headless clients and bots); the desk, the hub or a notification
	// answers.
	QuestionsDesk = Questions(dialect.ApprovalsDesk)
)

// String is the flag spelling, the same words as --approvals'.
func (q Questions) String() string { return dialect.Approvals(q).String() }

// Set parses the flag spelling, so Questions is a flag.Value.
func (q *Questions) Set(s string) error {
	a := dialect.Approvals(*q)
	if err := a.Set(s); err != nil {
		return err
	}
	*q = Questions(a)
	return nil
}

// Routing says where questions are asked, and what an automatic answer is.
type Routing struct {
	// Questions says where: the client (racing the board), or the board
	// only.
	Questions Questions
	// MinAnswerTime, when non-zero, is the least time a person takes to
	// answer a permission request; a faster answer is the client's
	// automatic policy (DefaultMinAnswerTime). Elsewhere reports whether the
	// desk or the hub can answer now: such a question waits for them, else
	// the model is told no person saw it.
	MinAnswerTime time.Duration
	Elsewhere     func() bool
}

// DefaultMinAnswerTime is the least time a person takes to answer a
// question shown as a permission request. acpx --approve-all answered in
// 81 to 166 ms, as askbridge measures it (the request out, the response
// in; through acpx's queue process, on a busy 2-core machine): a machine's
// answer. A person must see the request, read a question and an option,
// and press a key or click: a visual reaction alone takes 200 to 250 ms,
// the key or the click 100 more, and the reading longer than both. 400 ms
// lies between, with room for a slower machine.
const DefaultMinAnswerTime = 400 * time.Millisecond

// render is how questions reach the client: --render, else the client
// table's entry for the client, else RenderAuto.
func (b *Bridge) render() Render {
	if b.opts.Render != RenderAuto {
		return b.opts.Render
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.client.Render
}

// noteClient looks the client up in the table by initialize's clientInfo.
func (b *Bridge) noteClient(name, version string) {
	c, known := clientNamed(name)
	b.mu.Lock()
	b.client = c
	b.mu.Unlock()
	cancels := c.TakesCancelRequest(version)
	b.relay.Client.KeepsRequestsOpen(!cancels)
	if known {
		b.logger.Info("client known", "client", name, "version", version, "render", c.Render, "takesCancelRequest", cancels)
	}
}

// errMachine is a permission request answered faster than a person can
// read it.
type errMachine struct{ took, min time.Duration }

func (e errMachine) Error() string {
	return fmt.Sprintf("the client answered in %s, faster than a person can read the question (--min-answer-time %s): its automatic policy, not the user's choice", e.took.Round(time.Millisecond), e.min)
}

// guardedPeer is the client for a question set, timing each request: an
// answer within min is errMachine.
type guardedPeer struct {
	clientPeer
	min time.Duration
}

func (g guardedPeer) RequestPermission(ctx context.Context, params []byte) ([]byte, error) {
	start := time.Now()
	resp, err := g.clientPeer.RequestPermission(ctx, params)
	if took := time.Since(start); err == nil && took < g.min {
		return nil, errMachine{took: took, min: g.min}
	}
	return resp, err
}

// askPeer asks the client for a set: permission requests (a yes/no walk
// to a yes/no client), each answer timed. An answer no person could have
// given is not the user's: the set waits for the desk or the hub when one
// can answer, else the model is told nobody saw the question.
func (b *Bridge) askPeer(ctx context.Context, req permission.Request) (permission.Result, error) {
	req.YesNo = b.render() == RenderYesNo
	res, err := permission.Ask(ctx, guardedPeer{clientPeer{b.relay.Client}, b.opts.MinAnswerTime}, req)
	var m errMachine
	if !errors.As(err, &m) {
		return res, err
	}
	if b.opts.Elsewhere != nil && b.opts.Elsewhere() {
		b.logger.Warn(m.Error()+"; the question waits for the desk or the hub", "session", req.SessionID)
		<-ctx.Done()
		return permission.Result{}, ctx.Err()
	}
	b.logger.Warn(m.Error()+"; the model is told no person saw the question", "session", req.SessionID)
	return permission.Unseen(req.Questions), nil
}
