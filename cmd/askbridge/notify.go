package main

import (
	"fmt"
	"log/slog"
	"net/url"

	"github.com/askbridge/askbridge/internal/notify"
)

// checkNotify reports a --notify-url that is no URL, and a --public-url
// that is none or has no desk behind it, before anything starts.
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
	if o.notifyURL == "" {
		return nil
	}
	_, err := notify.NewWebhook(o.notifyURL)
	return err
}

// notifyOptions are the consumers of question events the flags ask for.
// startDesk has made o.taps by then, when --public-url wants buttons.
func (o *proxyOptions) notifyOptions(deskURL string, logger *slog.Logger) notify.Options {
	return notify.Options{Hook: o.onQuestion, Desktop: o.notify, URL: o.notifyURL, DeskURL: deskURL,
		PublicURL: o.publicURL, Taps: o.taps, Logger: logger}
}
