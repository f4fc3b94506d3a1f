// Package conformance pins askbridge's behaviour with recorded exchanges:
// txtar fixtures holding what a client and an agent said (sections client
// and agent) and what askbridge must say to each (want-client and
// want-agent). Replay plays both sides against the real adapter, each line
// sent once the lines it depends on have been seen, and compares what
// askbridge emitted, so a change that breaks Claude, Qwen, OpenCode or a
// client shows as a diff.
//
// A desk section holds what the answer desk did (a step answered, a set
// rejected), which neither side said: the replay serves the desk and gives
// each line back once the client has sent the lines before it and its set
// is pending at that step, holding the client's later lines until then.
//
// The comment of a fixture says which agent and version it was recorded
// with and what it proves; a line "flags: ..." in it gives askbridge's
// flags for the replay, and a line "command: ..." the agent's command line,
// by which askbridge knows which agent's own advertisements it sends
// (dialect.Targeted): none names no agent it knows, which gets them all.
package conformance
