package adapter

import (
	"fmt"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/permission"
)

// nextRound numbers req as the next round of its session's turn, at most
// max rounds a turn (0: no limit). ok is false when the turn asked too
// often: refused is then what the agent gets instead of an answer, and
// the client is still to be shown why (tellRoundLimit), by askRound at
// once, or by unwatched for a set the client itself may answer.
func (b *Bridge) nextRound(req *permission.Request, max int) (refused dialect.Outcome, ok bool) {
	if req.Round, ok = b.board.NextRound(req.SessionID, max); ok {
		return dialect.Outcome{}, true
	}
	return dialect.Outcome{Status: dialect.Refused, Message: b.roundLimitMessage()}, false
}

// askRound is nextRound for a set askbridge asks itself, at most
// MaxRounds a turn; a refused set is shown to the client at once.
func (b *Bridge) askRound(req *permission.Request) (refused dialect.Outcome, ok bool) {
	refused, ok = b.nextRound(req, b.opts.MaxRounds)
	if !ok {
		b.tellRoundLimit(req.SessionID)
	}
	return refused, ok
}

// roundLimitMessage is what the model reads when a turn asked too often.
func (b *Bridge) roundLimitMessage() string {
	return fmt.Sprintf("question limit of %d reached in this turn; continue with what you know or ask in the chat", b.opts.MaxRounds)
}

// tellRoundLimit shows the client why a question was not shown.
func (b *Bridge) tellRoundLimit(session string) {
	b.logger.Warn("question limit reached", "session", session, "max-rounds", b.opts.MaxRounds)
	b.relay.Client.Notify(acp.ClientMethodSessionUpdate, acp.SessionNotification{
		SessionId: acp.SessionId(session),
		Update: acp.StartToolCall(acp.ToolCallId(newToolCallID()), "askbridge: "+b.roundLimitMessage(),
			acp.WithStartKind(acp.ToolKindThink), acp.WithStartStatus(acp.ToolCallStatusFailed)),
	})
}
