package relay

import (
	"io"
	"log/slog"
)

// Refuse is askbridge declining to start (a flag that makes no sense, a
// port in use): with no agent to relay to, it answers the client's requests
// on in and out with e, as for an agent that cannot be started, so the
// editor shows why instead of "the agent died". It returns when the client
// closes its input, shortly after its first request was answered, or after
// 10 s.
func Refuse(in io.Reader, out io.Writer, e *Error, logger *slog.Logger) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	answerWithError(in, out, e, logger)
}
