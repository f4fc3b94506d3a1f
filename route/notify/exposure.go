package notify

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Where the ntfy topic may live. Its name is its password, and the agent
// runs as the user: any file of the user's it can read, and any variable
// set in a shell profile or an editor's settings, it can read too. What a
// contained agent cannot see is askbridge's own folders, emptied in its
// mount namespace; so the topic belongs in a file there (TopicFile), mode
// 0600, named by --notify-url @FILE or ASKBRIDGE_NOTIFY_URL=@FILE. An agent
// that is not contained reads that file as well: nothing of the user's is
// out of its reach (docs/security.md).

// TopicFile is where askbridge keeps the webhook's URL: notify-url in
// askbridge's config folder.
func TopicFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no config folder for the ntfy topic: %w", err)
	}
	return filepath.Join(dir, "askbridge", "notify-url"), nil
}

// Exposure says how the URL that flag (the value of --notify-url, else
// $ASKBRIDGE_NOTIFY_URL) names is exposed beyond askbridge's own folders,
// for a warning at start: "" when it is not (no URL, or a file inside
// askbridge's config folder, links resolved).
func Exposure(flag string) string {
	v, from := flag, "--notify-url"
	if v == "" {
		v, from = os.Getenv(URLEnv), URLEnv
	}
	if v == "" {
		return ""
	}
	want, err := TopicFile()
	if err != nil {
		want = "askbridge's config folder"
	}
	file, ok := strings.CutPrefix(v, "@")
	switch {
	case !ok && from == URLEnv:
		return fmt.Sprintf("$%s holds the webhook's URL itself: wherever it was set (a shell profile, an editor's settings) the agent can read it; put it in %s (mode 0600) and set %s=@%s", URLEnv, want, URLEnv, want)
	case !ok:
		return fmt.Sprintf("--notify-url holds the webhook's URL itself, on a command line every process on this machine can read; put it in %s (mode 0600) and pass --notify-url @%s", want, want)
	case !inside(file, filepath.Dir(want)):
		return fmt.Sprintf("%s @%s: the file is outside askbridge's config folder %s, which a contained agent cannot see: the agent can read it; move it to %s", from, file, filepath.Dir(want), want)
	}
	return ""
}

// inside says whether file is in dir, links resolved.
func inside(file, dir string) bool {
	f, err1 := filepath.EvalSymlinks(file)
	d, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, f)
	return err == nil && rel != "." && !strings.HasPrefix(rel, "..")
}
