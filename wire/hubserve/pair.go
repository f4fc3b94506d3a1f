package hubserve

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/internal/qr"
	"github.com/askbridge/askbridge/route/hub"
)

// openDevices are the hub's paired devices, kept in its state folder and
// sealed with a key derived from the hub's: a file that fails its seal
// (edited, by the agent perhaps) is logged, and its devices dropped.
func openDevices(logger *slog.Logger) (*pairing.Devices, error) {
	path, err := hub.DevicesPath()
	if err != nil {
		return nil, err
	}
	keyPath, err := hubkey.Path()
	if err != nil {
		return nil, err
	}
	key, err := hubkey.Open(keyPath)
	if err != nil {
		return nil, err
	}
	devices, err := pairing.Open(path, key.Derive("hub-devices.json"))
	if errors.Is(err, pairing.ErrUnsealed) {
		logger.Warn("hub: refused the paired devices file", "err", err)
		return devices, nil
	}
	return devices, err
}

func writesToTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// codeShower shows pairing codes on the hub's own terminal, and nowhere
// else: not in a log, which a unit's journal keeps and any process of the
// user reads.
type codeShower struct {
	stderr    io.Writer
	terminal  bool
	qr        bool
	publicURL string
	logger    *slog.Logger
}

// show prints a code the page asked for: on the terminal only.
func (c *codeShower) show(code, link string, expires time.Time) string {
	if !c.terminal {
		c.logger.Info("hub: a page asked for a pairing code; this hub has no terminal to show it on: run askbridge hub pair")
		return ""
	}
	c.print(code, link, expires)
	return "the hub's terminal"
}

// pairURL is the pairing link of a code, for `askbridge hub pair`: at
// --public-url when given, as the terminal's.
func (c *codeShower) pairURL(link func(code string) string) func(code string) string {
	return func(code string) string { return c.atPublic(link(code)) }
}

// atPublic moves a pairing link to --public-url, when given, keeping the
// code and the letters that make it a link (what follows #pair=).
func (c *codeShower) atPublic(link string) string {
	if c.publicURL == "" {
		return link
	}
	_, linked, _ := strings.Cut(link, "#pair=")
	return strings.TrimSuffix(c.publicURL, "/") + "/#pair=" + linked
}

func (c *codeShower) print(code, link string, expires time.Time) {
	link = c.atPublic(link)
	fmt.Fprintf(c.stderr, "askbridge: pairing code %s (once, until %s): %s\n", code, expires.Local().Format("15:04:05"), link)
	if !c.qr {
		return
	}
	if !phoneReaches(link) {
		fmt.Fprintln(c.stderr, "askbridge: no QR code: a phone cannot open this machine's own address; serve the page where it can (--listen, --public-url)")
		return
	}
	modules, err := qr.Modules(link)
	if err != nil {
		c.logger.Warn("hub: no QR code of the pairing link", "err", err)
		return
	}
	fmt.Fprintf(c.stderr, "askbridge: scan to pair a phone:\n%s", qr.Terminal(modules, qrColor(true, os.Getenv)))
}

// atStart shows a first code when the hub runs on a terminal, else says
// how to get one.
func (c *codeShower) atStart(link func(code string) string, devices *pairing.Devices) {
	if !c.terminal {
		fmt.Fprintln(c.stderr, "askbridge: pair a browser with the code `askbridge hub pair` prints")
		return
	}
	code, expires := devices.NewCode()
	c.print(code, link(code), expires)
}

// phoneReaches says whether another device could open link: not an address
// of this machine alone (localhost, a loopback IP), nor one that does not
// parse. A QR code of such a link only leads a phone astray.
func phoneReaches(link string) bool {
	u, err := url.Parse(link)
	if err != nil || u.Hostname() == "" {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsLoopback() && !ip.IsUnspecified()
}

// PageOf is a pairing link's page: the link without its code.
func PageOf(link string) string {
	page, _, _ := strings.Cut(link, "#pair=")
	return page
}
