package main

import (
	"log/slog"

	"github.com/askbridge/askbridge/internal/notify"
)

// checkNotify reports a --notify-url that is no URL before anything starts.
func (o *proxyOptions) checkNotify() error {
	if o.notifyURL == "" {
		return nil
	}
	_, err := notify.NewWebhook(o.notifyURL)
	return err
}

// notifyOptions are the consumers of question events the flags ask for.
func (o *proxyOptions) notifyOptions(deskURL string, logger *slog.Logger) notify.Options {
	return notify.Options{Hook: o.onQuestion, Desktop: o.notify, URL: o.notifyURL, DeskURL: deskURL, Logger: logger}
}
