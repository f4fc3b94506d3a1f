// Package dialect is what an agent dialect sees of askbridge: the Dialect
// interface and its Claim, the Host it may use, the Outcome it turns into
// the agent's reply, and the helpers for form elicitations (ParseForm,
// FormClaim). Each dialect is a package of its own below this one
// (claude, codex, qwen, opencode, cursor, kiro, grok, asktool,
// approvals) and imports this package, never the bridge (package adapter)
// and never another dialect; a boundary test holds it, as database/sql's
// drivers.
//
// To add a dialect, copy the folder of the one nearest in shape (qwen for
// a permission request carrying questions, cursor for an extension
// request, claude for a form) and write a type with three methods:
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
//     Its Mode (mode.go) names how the set is asked: Ask (the zero value),
//     AskForm, Render, Observe, Mirror, Board, Extension, ExtensionForm or
//     Forward; a watched mode needs ReadResponse. The bridge refuses a
//     claim its mode cannot serve (the agent gets an error, the log says
//     why), and leaves out a dialect whose hooks cannot work.
//
// Optionally it implements Advertiser (something to add to the client's
// initialize), Launcher (how its agent is started) and Rewriter (other
// messages it changes on their way, as asktool.MCPAsk lists its server in
// session/new). Then add one line to the table, adapter.Dialects, before
// any dialect that would also claim its messages, and one conformance
// fixture. Wire shapes live in the dialect's files, typed with acp-go-sdk
// where the SDK has the type and with a small struct of the dialect's own,
// commented, where it has not.
package dialect
