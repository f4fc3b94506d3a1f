// Package adapter is askbridge's bridge: on the hooks of the relay
// (package adapter/relay, which moves the JSON-RPC lines between the client
// and the agent and knows nothing of ACP), it reads the ACP session
// lifecycle and turns every way an agent asks the user a question into
// something the client shows, and the answers back into what the agent
// reads.
//
// # Dialects
//
// Each way an agent asks the user is a Dialect, one file each (ask.go,
// codex.go, elicitation.go, qwen.go, opencode.go), listed in the one table,
// Dialects. The Bridge owns everything else: the board, rounds, cancellation
// (session/cancel, $/cancel_request, shutdown), timeouts, and asking with
// permission requests or one form.
//
// To add a dialect, write a type with three methods, taking ask.go (the
// `_askbridge/ask` dialect) as the example:
//
//   - Name, for logs.
//   - Hooks, the methods it reads and who sends them.
//   - Claim, called on the relay's reading goroutine for each such message:
//     nil when the message is not the dialect's (it goes on to the next
//     dialect on the method, then to the other side), else a Claim saying
//     which session and tool call, how to decode and validate the questions
//     (Questions, run on a goroutine of its own), and what the agent gets
//     for each Outcome (Reply: Answered, Cancelled, TimedOut, Refused,
//     Invalid). Reply returns the result for the request's id, or an error.
//
// Optionally it implements Advertiser (something to add to the client's
// initialize), Launcher (how its agent is started) and Rewriter (other
// messages it changes on their way, as MCPAsk lists its server in
// session/new). Then add it to
// Dialects, before any dialect that would also claim its messages, and add
// a conformance fixture recorded from the real agent. Wire shapes live in
// the dialect's file, typed with acp-go-sdk where the SDK has the type and
// with a small struct of the dialect's own, commented, where it has not.
package adapter
