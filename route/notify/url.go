package notify

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"strings"
)

// URLEnv names the environment variable that gives the webhook's URL when
// --notify-url is not set. A public ntfy topic's name is its password: in
// the environment (or a file) it stays off every command line, which any
// user of the machine reads.
const URLEnv = "ASKBRIDGE_NOTIFY_URL"

// ResolveURL is the webhook URL that flag (the value of --notify-url)
// names: the flag, else $ASKBRIDGE_NOTIFY_URL; either may be "@FILE", the
// URL then being FILE's first line. On Unix the file must not be readable
// by other users.
func ResolveURL(flag string) (string, error) {
	v, from := flag, "--notify-url"
	if v == "" {
		v, from = os.Getenv(URLEnv), URLEnv
	}
	file, ok := strings.CutPrefix(v, "@")
	if !ok {
		return v, nil
	}
	st, err := os.Stat(file)
	if err != nil {
		return "", fmt.Errorf("%s @%s: %v", from, file, pathless(err))
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s @%s: other users may read it (mode %04o); chmod 600 %s", from, file, st.Mode().Perm(), file)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("%s @%s: %v", from, file, pathless(err))
	}
	line, _, _ := strings.Cut(string(b), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("%s @%s: the file is empty; put the URL on its first line", from, file)
	}
	return line, nil
}

// pathless is err without the path the message names already.
func pathless(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// CheckURL is ResolveURL that also checks the URL is a webhook's
// (NewWebhook), and says on warn, never with the URL itself, when the
// place it came from is readable beyond askbridge's own folders
// (Exposure): what the flags' check runs before anything starts.
func CheckURL(flag string, warn *slog.Logger) (string, error) {
	u, err := ResolveURL(flag)
	if err != nil || u == "" {
		return u, err
	}
	if w := Exposure(flag); w != "" {
		warn.Warn("notify: " + w)
	}
	if _, err := NewWebhook(u); err != nil {
		return "", err
	}
	return u, nil
}
