package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/internal/desk"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
)

// startDesk serves the answer desk when --desk asks for it (nil when not)
// and tells the user where: on stderr, and in --log-file too, where a user
// whose editor hides askbridge's stderr looks.
//
// Its pairing codes go to askbridge's controlling terminal only (deskTTY),
// never to stderr or the log: those are the editor's log, which the agent
// reads. An askbridge with no terminal (an editor started from the
// desktop) shows no code, and its desk pairs no browser: the hub is the
// page for it (docs/security.md).
func startDesk(opts *proxyOptions, board *permission.Board, logger *slog.Logger, stderr io.Writer) (*desk.Server, error) {
	if opts.desk == "" {
		return nil, nil
	}
	if opts.publicURL != "" {
		// The key of the notifications' answer buttons: it lives in this
		// process only, shared by the webhook that mints and the desk that
		// redeems.
		opts.taps = answertoken.New()
	}
	devices := pairing.Memory()
	d, err := desk.Listen(opts.desk, board, desk.Options{Devices: devices, ShowCode: showOnTTY, Origin: opts.deskOrigin, AllowRemote: opts.deskAllowRemote, NoCustom: !opts.deskCustom,
		Taps: opts.taps, PublicURL: opts.publicURL, Logger: logger, Key: deskKey(logger)})
	if err != nil {
		return nil, err
	}
	if opts.deskAllowRemoteHTTP {
		warnDeskClearText(stderr, opts.desk)
	}
	code, expires := devices.NewCode()
	where := " (its pairing code is on askbridge's terminal)"
	if showOnTTY(code, d.PairURL(code), expires) == "" {
		where = " (askbridge has no terminal to show a pairing code on: use askbridge hub)"
	}
	fmt.Fprintf(stderr, "askbridge: desk at %s%s\n", d.URL(), where)
	if opts.logFile != "" {
		logger.Info("askbridge: desk at " + d.URL() + where)
	}
	return d, nil
}

// showOnTTY writes a pairing code to askbridge's controlling terminal,
// which the agent can write to but not read back what is shown, and says
// where ("" with no terminal).
func showOnTTY(code, link string, expires time.Time) string {
	tty, err := os.OpenFile(deskTTY, os.O_WRONLY, 0)
	if err != nil {
		return ""
	}
	defer tty.Close()
	if _, err := fmt.Fprintf(tty, "\r\naskbridge: desk pairing code %s (once, until %s): %s\r\n", code, expires.Local().Format("15:04:05"), link); err != nil {
		return ""
	}
	return "askbridge's terminal"
}
