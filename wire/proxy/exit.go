package proxy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/askbridge/askbridge/adapter/relay"
)

// ExitCode is askbridge's exit code once Run has returned err (the agent
// ran, or failed to start), said on stderr or in the log (logFile: the
// logger writes to --log-file, which gets what stderr says too).
func ExitCode(err error, logFile bool, logger *slog.Logger, stderr io.Writer) int {
	var exit *relay.AgentExitError
	var notStarted *relay.StartError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		logger.Error("askbridge: " + exit.Error())
		return exit.ExitCode()
	case errors.Is(err, context.Canceled):
		return 130
	case errors.As(err, &notStarted):
		// Run has said so on stderr, as a sentence; a log file gets it too.
		if logFile {
			logger.Error("askbridge: " + err.Error())
		}
		return 1
	default:
		fmt.Fprintln(stderr, "askbridge:", err)
		return 1
	}
}
