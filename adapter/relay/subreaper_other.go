//go:build !linux

package relay

// Only Linux has a child subreaper: elsewhere an orphan of the agent goes
// to init (launchd), outside askbridge's tree (see docs/security.md).
func adoptOrphans()   {}
func watchGroup(int)  {}
func forgetGroup(int) {}
