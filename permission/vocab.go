package permission

// The board's vocabulary: what a set is (Kind), where it stands (State),
// what resolved it (Source) and what watchers hear (EventType). Each is a
// string underneath, so the JSON of Pending, Result and Event (the desk's
// and the hub's wire, the history files, the decisions log) is the same
// as before they were types; a value this askbridge does not know (a
// history written by a newer one) is kept as it is read.

// Kind is what a set on the board is.
type Kind string

// Kinds of a set on the board.
const (
	KindQuestion Kind = "question"
	KindApproval Kind = "approval"
	// KindMode, in the decisions log only: a switch of a session's mode.
	KindMode Kind = "mode"
)

// State is where a set stands.
type State string

// States of a question set.
const (
	StatePending   State = "pending"
	StateAnswered  State = "answered"
	StateCancelled State = "cancelled"
	StateTimeout   State = "timeout"
)

// Source is where a set was answered or cancelled from.
type Source string

// Sources of a result.
const (
	SourceClient   Source = "client"   // the editor's permission requests (the default)
	SourceDesk     Source = "desk"     // the answer desk
	SourceTerminal Source = "terminal" // a terminal prompter
	SourceHub      Source = "hub"      // askbridge hub's page, which shows every askbridge's sets
	SourceTimeout  Source = "timeout"  // --question-timeout, whatever it resolved to
	// The routes that answer a set through the desk's API but are not the
	// desk's page: a history says the route the person used.
	SourceNotification Source = "notification" // a notification's answer button (a tap)
	SourceInbox        Source = "inbox"        // askbridge inbox, the hub's terminal inbox
)

// Sources is every Source with the words a person reads for it: the one
// table the CLI's help, the docs, the page and the terminal's messages
// name routes by (cmd/askbridge's words test holds them to it). Noun is
// the word a description of the source must carry; Where is where it was
// answered, as a sentence says it after "answered".
var Sources = []SourceWords{
	{SourceClient, "editor", "in the editor"},
	{SourceDesk, "desk", "on the desk's page"},
	{SourceHub, "hub", "on the hub's page"},
	{SourceInbox, "inbox", "in the terminal inbox"},
	{SourceNotification, "notification", "from a notification's button"},
	{SourceTerminal, "terminal", "at askbridge's terminal prompt"},
	{SourceTimeout, "timeout", "by the timeout"},
}

// SourceWords is a Source and its words (Sources).
type SourceWords struct {
	Source      Source
	Noun, Where string
}

// Where is where s answered a set, as a sentence says it after
// "answered" ("on the hub's page"); empty for a source not in Sources.
func (s Source) Where() string {
	for _, e := range Sources {
		if e.Source == s {
			return e.Where
		}
	}
	return ""
}

// States is every State a set can be in, in the order the docs list them.
var States = []State{StatePending, StateAnswered, StateCancelled, StateTimeout}

// EventType is what changed on the board.
type EventType string

// Event types a board publishes.
const (
	EventAsked    EventType = "question.asked"
	EventReplied  EventType = "question.replied"
	EventRejected EventType = "question.rejected"
	// EventHeld: an interaction moved the set's deadline later.
	EventHeld EventType = "question.held"
	// EventExpiring: the set times out soon; a last call for the user.
	EventExpiring EventType = "question.expiring"
	// EventClaimed: a set's claim changed hands (or was first made).
	EventClaimed EventType = "question.claimed"
	// EventNoted: a pending set's Note changed (the agent stopped waiting
	// for it, say); it stays answerable.
	EventNoted EventType = "question.noted"
)

// Final reports whether an event of type e ends its set.
func (e EventType) Final() bool { return e == EventReplied || e == EventRejected }
