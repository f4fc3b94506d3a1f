// Package proctree reads the system's process tree and holds a process
// tree together, for the code that must know what runs below what: the
// hub, which refuses an answer from inside an agent's tree; the relay,
// which ends the agent's whole group and reaps the orphans it adopts; the
// notifiers' hooks, whose background children end with them.
//
// One small interface per OS, in build-tagged files:
//
//   - Read and List (the process table): /proc on Linux; sysctl
//     kern.proc on macOS (Read only); elsewhere ErrUnsupported.
//   - Parent, Children and Descends are built on them, the same on every
//     OS.
//   - Job (Windows): a Job Object that holds a process and all it starts
//     and ends them when its last handle closes, however askbridge ends.
package proctree
