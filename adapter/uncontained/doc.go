// Package uncontained marks what the editor shows of an agent that runs
// outside askbridge's container. The editor's permission request is where
// most approvals are decided, so an uncontained agent says so there: the
// request's title starts with the warning, and each allowing option's name
// ends with a short mark (every client shows the buttons; a title the
// agent left out is not invented, as clients then keep the tool call's
// own). Nothing is changed for a contained agent, and the hook is not
// installed at all: a relay pays for it only when there is something to
// say. It knows the relay, nothing of the bridge.
package uncontained
