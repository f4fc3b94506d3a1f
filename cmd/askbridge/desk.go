package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/askbridge/askbridge/internal/desk"
	"github.com/askbridge/askbridge/permission"
)

// deskTokenEnv sets the desk's token; unset, the desk makes a random one.
const deskTokenEnv = "ASKBRIDGE_DESK_TOKEN"

// startDesk serves the answer desk when --desk asks for it (nil when not)
// and tells the user where: on stderr, and in --log-file too, where a user
// whose editor hides askbridge's stderr looks.
func startDesk(opts *proxyOptions, board *permission.Board, logger *slog.Logger, stderr io.Writer) (*desk.Server, error) {
	if opts.desk == "" {
		return nil, nil
	}
	token := os.Getenv(deskTokenEnv)
	if err := desk.CheckToken(token); err != nil {
		return nil, fmt.Errorf("%s: %w", deskTokenEnv, err)
	}
	d, err := desk.Listen(opts.desk, board, desk.Options{Token: token, AllowRemote: opts.deskAllowRemote, NoCustom: !opts.deskCustom, Logger: logger})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "askbridge: desk at %s\n", d.URL())
	if opts.logFile != "" {
		logger.Info("askbridge: desk at " + d.URL())
	}
	return d, nil
}
