//go:build linux

package relay

// GroupAlive is groupAlive, for the tests outside the package.
var GroupAlive = groupAlive
