// Package hubunit writes what starts askbridge hub at login: a systemd user
// unit, or a launchd agent on macOS, with the hub's secrets in files of
// mode 0600 that the unit reads rather than on its command line.
package hubunit
