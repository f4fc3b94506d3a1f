// Package hubctl is what `askbridge hub pair`, `devices`, `revoke`, `key`
// and `log` do: ask the running hub over its socket, or read its state
// (its key, its decisions log) where the hub need not run.
package hubctl
