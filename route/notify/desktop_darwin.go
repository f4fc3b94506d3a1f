package notify

// nativeDesktop on macOS: osascript's `display notification`, which needs
// no helper app (it shows as Script Editor's), its script on stdin.
func nativeDesktop() (shower, error) { return findScript("osascript", osascriptArgs, osascriptScript) }
