package desk

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/route"
)

// Route is the answer desk of one askbridge as a route: what its flags
// ask for.
type Route struct {
	Addr string // --desk: "" serves none
	// AllowRemote and AllowRemoteHTTP let it listen beyond loopback, over
	// plain HTTP (checked with the flags; warned at every start).
	AllowRemote, AllowRemoteHTTP bool
	Custom                       bool   // typed answers that are no option (--desk-custom)
	PublicURL                    string // --public-url: answer buttons in notifications
}

// Name is route.Route's.
func (Route) Name() string { return "desk" }

// Start serves the desk when the flags ask for it, and tells the user
// where: on stderr, and in --log-file too, where a user whose editor hides
// askbridge's stderr looks. It leaves its address in env, and, with
// --public-url, the key of the notifications' answer buttons, which lives
// in this process only (the webhook mints, the desk redeems).
//
// Its pairing codes go to askbridge's controlling terminal only (deskTTY),
// never to stderr or the log: those are the editor's log, which the agent
// reads. An askbridge with no terminal (an editor started from the
// desktop) shows no code, and its desk pairs no browser: the hub is the
// page for it (docs/security.md).
func (d Route) Start(env *route.Env) (route.Running, error) {
	if d.Addr == "" {
		return route.Off("no --desk"), nil
	}
	var taps *answertoken.Key
	if d.PublicURL != "" {
		taps = answertoken.New()
	}
	devices := pairing.Memory()
	srv, err := Listen(d.Addr, env.Board, Options{Devices: devices, ShowCode: showOnTTY, AllowRemote: d.AllowRemote, NoCustom: !d.Custom,
		Taps: taps, PublicURL: d.PublicURL, Logger: env.Logger, Key: lastingKey(env.Logger)})
	if err != nil {
		if addrInUse(err) {
			err = fmt.Errorf("--desk %s: the address is taken (another askbridge's desk, from a second editor window?): give another port, or 127.0.0.1:0 for any free one", d.Addr)
		}
		return nil, err
	}
	if d.AllowRemoteHTTP {
		WarnClearText(env.Stderr, d.Addr)
	}
	code, expires := devices.NewCode()
	where := " (its pairing code is on askbridge's terminal)"
	if showOnTTY(code, srv.PairURL(code), expires) == "" {
		where = " (askbridge has no terminal to show a pairing code on: use askbridge hub)"
	}
	fmt.Fprintf(env.Stderr, "askbridge: desk at %s%s\n", srv.URL(), where)
	if env.LogFile {
		env.Logger.Info("askbridge: desk at " + srv.URL() + where)
	}
	env.DeskURL, env.Taps = srv.URL(), taps
	return running{srv, "the desk at "}, nil
}

// running is a started desk (or the hub's page): it can always answer.
type running struct {
	srv  *Server
	what string // "the desk at "
}

func (r running) Where() string   { return r.what + r.srv.URL() }
func (r running) Missing() string { return "" }
func (r running) Showing() bool   { return true }
func (r running) Close()          { r.srv.Close() }

// WarnClearText says, at every start and whatever --log-level, that the
// desk is served beyond loopback over plain HTTP, as the hub's
// --allow-remote-http does.
func WarnClearText(w io.Writer, addr string) {
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

// lastingKey is the key the per-askbridge desk's page holds it to
// (prove.go): the hub's, this user's lasting one, so that a page paired
// with a desk on a fixed port finds it again after a restart (and, its
// devices being of one run, pairs again) rather than a desk it cannot
// tell from a squatter. Nil (a key of the desk's run) where there is none
// to open.
func lastingKey(logger *slog.Logger) *hubkey.Key {
	path, err := hubkey.Path()
	if err == nil {
		var k *hubkey.Key
		if k, err = hubkey.Open(path); err == nil {
			return k
		}
	}
	logger.Warn("desk: the page proves a key of this run only", "err", err)
	return nil
}
