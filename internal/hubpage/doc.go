// Package hubpage keeps a running hub's page address (no credential)
// beside its socket, so that a second `askbridge hub` and the terminal
// inbox can say where the first one serves.
package hubpage
