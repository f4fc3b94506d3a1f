// Package inbox is the terminal's view of askbridge hub (`askbridge
// inbox`): it asks what waits across every agent, one set after another,
// and answers it at the hub over the inbox's Unix socket, where the hub
// checks who calls. The first answer wins; a set that ends elsewhere while
// asked says how.
package inbox
