package notify

// nativeDesktop on macOS: osascript's `display notification`, which needs
// no helper app (it shows as Script Editor's).
var nativeDesktop = desktopCmd{name: "osascript", args: osascriptArgs}

// osascriptArgs passes title and body as arguments of the script's run
// handler, so that no text needs AppleScript quoting.
func osascriptArgs(title, body string) []string {
	return []string{
		"-e", "on run argv",
		"-e", "display notification (item 2 of argv) with title \"askbridge\" subtitle (item 1 of argv)",
		"-e", "end run",
		title, body,
	}
}
