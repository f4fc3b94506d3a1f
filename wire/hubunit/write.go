package hubunit

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Write prints the unit's files. One (launchd's plist) goes out as it
// is, for a redirect to save, what to run next on stderr; several
// (systemd's socket and service) each under a comment line naming the
// file to save it as, then the commands that enable them, all lines a
// unit file takes as comments.
func Write(stdout, stderr io.Writer, files []File) {
	if len(files) == 1 {
		io.WriteString(stdout, files[0].Text)
		fmt.Fprintf(stderr, "askbridge hub: save it as %s, then: launchctl bootstrap gui/$(id -u) %s\n", files[0].Path, files[0].Path)
		return
	}
	var names []string
	for _, f := range files {
		fmt.Fprintf(stdout, "# save as %s\n%s\n", f.Path, f.Text)
		names = append(names, filepath.Base(f.Path))
	}
	fmt.Fprintf(stdout, "# then run\n#   systemctl --user daemon-reload\n#   systemctl --user enable --now %s\n", strings.Join(names, " "))
}
