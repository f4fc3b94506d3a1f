//go:build windows

package relay

import "time"

// KillAlone ends the agent's own process, not its job.
func KillAlone(a *Agent) error { return a.cmd.Process.Kill() }

// Reap is a.reap.
func Reap(a *Agent, grace time.Duration) { a.reap(grace) }
