// Package adapter is askbridge's bridge: on the hooks of the relay
// (package adapter/relay, which moves the JSON-RPC lines between the client
// and the agent and knows nothing of ACP), it reads the ACP session
// lifecycle and turns every way an agent asks the user a question into
// something the client shows, and the answers back into what the agent
// reads.
//
// # Dialects
//
// Each way an agent asks the user is a Dialect, a package of its own under
// adapter/dialect (package dialect says how to write one), listed in the
// one table, Dialects (dialects.go). The Bridge owns everything else: the
// board, rounds, cancellation (session/cancel, $/cancel_request,
// shutdown), timeouts, and asking with permission requests or one form. It
// is each dialect's Host; a dialect sees nothing else of it.
//
// # Beside it
//
// What the bridge uses but is not its own lives in packages beside it that
// know nothing of it, each on the relay with a plain API: the `askbridge
// ask` socket (asksocket), its part of --record's recording (record), the
// ACP v2 wire (acpv2), a card's last words and plan (cardcontext), the
// subagent register (subagent), the sessions' modes (modes), what a next
// prompt gets (nextprompt), and the marks of an uncontained agent
// (uncontained). A test (internal/layout) keeps this folder to 20 files
// besides its tests.
package adapter
