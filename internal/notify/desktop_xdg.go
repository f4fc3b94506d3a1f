//go:build unix && !darwin

package notify

import "strings"

// nativeDesktop on Linux and the BSDs: notify-send (libnotify), which
// speaks to the desktop's notification daemon over D-Bus.
var nativeDesktop = desktopCmd{name: "notify-send", args: notifySendArgs}

// notifySendArgs: the body may hold markup, so the question's own text is
// escaped. Urgency stays normal: a critical notification would not expire,
// and would linger after the question is answered elsewhere.
func notifySendArgs(title, body string) []string {
	return []string{"--app-name=askbridge", "--urgency=normal", "--", title, markupEscaper.Replace(body)}
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
