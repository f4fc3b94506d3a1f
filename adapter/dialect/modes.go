package dialect

// ModeKind says what a session mode (ACP's modes: session/new's
// currentModeId, current_mode_update) lets the agent do without asking. The
// words are those ACP's AIR extension gives a mode's kind (_meta), which
// claude-agent-acp and codex-acp send only to clients that ask for them.
type ModeKind string

// The kinds askbridge tells apart.
const (
	// ModeAsks: the agent asks before tools that change things (the
	// default, a plan mode, accepting edits only).
	ModeAsks ModeKind = ""
	// ModeAutoReview: the agent itself decides which tool calls to ask
	// about; most run without asking (Claude's Auto, Codex's Auto review).
	ModeAutoReview ModeKind = "auto_review"
	// ModeFullAccess: the agent runs every tool without asking (Claude's
	// Bypass permissions, Codex's Full access, Qwen's YOLO).
	ModeFullAccess ModeKind = "full_access"
)

// Unasked reports whether tools run without the user's say in this kind.
func (k ModeKind) Unasked() bool { return k == ModeAutoReview || k == ModeFullAccess }

// ModeJudge is a dialect that knows its agent's session modes by id. The
// bridge asks the table's judges in order; the first kind that is not
// ModeAsks wins, and a mode's own _meta kind wins over every judge.
type ModeJudge interface {
	ModeKind(modeID string) ModeKind
}
