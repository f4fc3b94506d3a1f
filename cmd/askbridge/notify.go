package main

import (
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"

	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/route/notify"
)

// checkNotify reads the webhook's URL (--notify-url, else
// $ASKBRIDGE_NOTIFY_URL; either may be @FILE) into o.notifyURL, and
// reports one that is no URL, and a --public-url that is none or has no
// desk behind it, before anything starts.
func (o *proxyOptions) checkNotify() error {
	if o.publicURL != "" {
		u, err := url.Parse(o.publicURL)
		switch {
		case err != nil:
			return fmt.Errorf("--public-url %q: %v", o.publicURL, err)
		case u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "":
			return fmt.Errorf("--public-url %q: want the desk's address as http(s)://host[:port][/path], no user, query or fragment", u.Redacted())
		case o.desk == "":
			return fmt.Errorf("--public-url needs --desk: the answer buttons post to the desk")
		}
	}
	u, err := notify.CheckURL(o.notifyURL, slog.New(slog.NewTextHandler(os.Stderr, nil)))
	o.notifyURL = u
	return err
}

// notifyRoute is the notifiers the flags ask for, as a route: the hub has
// made o.taps by then, when --public-url wants buttons; the proxy's come
// from its desk's route, as does its page's address.
func (o *proxyOptions) notifyRoute(logger *slog.Logger) route.Route {
	return notify.Route{Options: notify.Options{Hook: o.onQuestion, Desktop: o.notify, URL: o.notifyURL,
		PublicURL: o.publicURL, Taps: o.taps, Logger: logger}}
}

// notifyFlags are the notifier flags, the proxy's and the hub's alike.
func (o *proxyOptions) notifyFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.onQuestion, "on-question", "", "run this shell command (sh -c; cmd.exe /c on Windows) for every question set: asked, expiring (shortly before its timeout), then answered, cancelled or timeout, and approval.asked… for the agent's approvals (--approvals mirror or desk); the event as JSON on stdin; at most 4 run at once and 64 events wait (more are dropped); a hook runs at most 30 s, and whatever it starts ends with it")
	fs.BoolVar(&o.notify, "notify", false, "raise a desktop notification when a question waits (the desktop's notification service over D-Bus; osascript on macOS; a PowerShell toast on Windows)")
	fs.StringVar(&o.notifyURL, "notify-url", "", "POST every question event here: plain text with ntfy's Title/Tags/Priority/Click headers (e.g. https://ntfy.sh/TOPIC), or JSON for a URL ending in #json; @FILE reads the URL from FILE's first line (mode 0600), and without the flag $"+notify.URLEnv+" is read the same way: a topic on the command line is readable by every user of the machine")
	fs.StringVar(&o.publicURL, "public-url", "", "the desk's address as your phone reaches it (a tunnel or proxy to --desk, or to the hub's --listen, e.g. https://desk.example.net): ntfy notifications then get buttons that answer a question with one tap")
}
