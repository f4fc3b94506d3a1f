// Package modes follows each session's mode as its agent reports it
// (session/new's, load's or resume's modes; current_mode_update; a
// session/set_mode that succeeded), in the agent's own words, with what it
// lets the agent do without asking (dialect.ModeKind); tells the editor
// of a mode that runs tools unasked when approvals go away from it; and
// switches a session's mode on the user's behalf for the board
// (Tracker.Switch, weighed by permission.WeighModeSwitch). It knows the
// relay, the dialects' mode judges and the board's types, nothing of the
// bridge.
package modes
