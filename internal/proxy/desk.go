package proxy

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

// Desk is the answer desk the flags ask for.
type Desk struct {
	Addr string // --desk: "" serves none
	// AllowRemote and AllowRemoteHTTP let it listen beyond loopback, over
	// plain HTTP (checked with the flags; warned at every start).
	AllowRemote, AllowRemoteHTTP bool
	Custom                       bool   // typed answers that are no option (--desk-custom)
	PublicURL                    string // --public-url: answer buttons in notifications
	// Origin names a set's agent and folder (selfOrigin); nil: none.
	Origin func(id string) (instance any, cwd string)
	// LogFile says the logger writes to --log-file, where the desk's
	// address is said too.
	LogFile bool
}

// StartDesk serves the answer desk when d asks for it (nil when not)
// and tells the user where: on stderr, and in --log-file too, where a user
// whose editor hides askbridge's stderr looks. taps is the key of the
// notifications' answer buttons, made with the desk when d.PublicURL is set.
//
// Its pairing codes go to askbridge's controlling terminal only (deskTTY),
// never to stderr or the log: those are the editor's log, which the agent
// reads. An askbridge with no terminal (an editor started from the
// desktop) shows no code, and its desk pairs no browser: the hub is the
// page for it (docs/security.md).
func StartDesk(d Desk, board *permission.Board, logger *slog.Logger, stderr io.Writer) (_ *desk.Server, taps *answertoken.Key, _ error) {
	if d.Addr == "" {
		return nil, nil, nil
	}
	if d.PublicURL != "" {
		// The key of the notifications' answer buttons: it lives in this
		// process only, shared by the webhook that mints and the desk that
		// redeems.
		taps = answertoken.New()
	}
	devices := pairing.Memory()
	srv, err := desk.Listen(d.Addr, board, desk.Options{Devices: devices, ShowCode: showOnTTY, Origin: d.Origin, AllowRemote: d.AllowRemote, NoCustom: !d.Custom,
		Taps: taps, PublicURL: d.PublicURL, Logger: logger, Key: deskKey(logger)})
	if err != nil {
		return nil, nil, err
	}
	if d.AllowRemoteHTTP {
		WarnDeskClearText(stderr, d.Addr)
	}
	code, expires := devices.NewCode()
	where := " (its pairing code is on askbridge's terminal)"
	if showOnTTY(code, srv.PairURL(code), expires) == "" {
		where = " (askbridge has no terminal to show a pairing code on: use askbridge hub)"
	}
	fmt.Fprintf(stderr, "askbridge: desk at %s%s\n", srv.URL(), where)
	if d.LogFile {
		logger.Info("askbridge: desk at " + srv.URL() + where)
	}
	return srv, taps, nil
}

// WarnDeskClearText says, at every start and whatever --log-level, that
// the desk is served beyond loopback over plain HTTP, as the hub's
// --allow-remote-http does.
func WarnDeskClearText(w io.Writer, addr string) {
	slog.New(slog.NewTextHandler(w, nil)).Warn("desk: --desk-allow-remote-http: the desk is served beyond loopback over plain HTTP; its credentials and every answer travel in clear text, and whoever reads this network's traffic can answer your agent's questions: use it only on a network that is already encrypted (a tailnet, WireGuard), else askbridge hub with --tls-cert and --tls-key", "desk", addr)
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
