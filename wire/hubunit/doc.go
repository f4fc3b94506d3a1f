// Package hubunit writes what starts askbridge hub at login: on Linux a
// systemd user socket unit, which holds the page's port in the user's
// service manager across the hub's restarts, and the service it starts; a
// launchd agent on macOS. The hub's secrets go to files of mode 0600 that
// the unit reads rather than onto its command line.
package hubunit
