package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/askbridge/askbridge/internal/answertoken"
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
	if opts.publicURL != "" {
		// The key of the notifications' answer buttons: it lives in this
		// process only, shared by the webhook that mints and the desk that
		// redeems.
		opts.taps = answertoken.New()
	}
	d, err := desk.Listen(opts.desk, board, desk.Options{Token: token, AllowRemote: opts.deskAllowRemote, NoCustom: !opts.deskCustom,
		Taps: opts.taps, PublicURL: opts.publicURL, Logger: logger})
	if err != nil {
		return nil, err
	}
	if opts.deskAllowRemoteHTTP {
		warnDeskClearText(stderr, opts.desk)
	}
	fmt.Fprintf(stderr, "askbridge: desk at %s\n", d.URL())
	if opts.logFile != "" {
		logger.Info("askbridge: desk at " + d.URL())
	}
	return d, nil
}
