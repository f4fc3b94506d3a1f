package hubunit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/askbridge/askbridge/route/notify"
)

// TopicToFile keeps a webhook URL given as itself (not @FILE) out of the
// hub's environment: --print-unit writes it to notify.TopicFile (mode
// 0600, in askbridge's config folder, which a contained agent cannot see)
// and the unit's environment names the file instead. v is the value of
// --notify-url or $ASKBRIDGE_NOTIFY_URL; it returns what the unit gets.
func TopicToFile(v string) (string, error) {
	if v == "" || strings.HasPrefix(v, "@") {
		return v, nil
	}
	file, err := notify.TopicFile()
	if err != nil {
		return "", fmt.Errorf("--print-unit: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", fmt.Errorf("--print-unit: %w", err)
	}
	tmp := file + ".tmp"
	os.Remove(tmp)
	if err := os.WriteFile(tmp, []byte(v+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("--print-unit: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return "", fmt.Errorf("--print-unit: %w", err)
	}
	return "@" + file, nil
}
