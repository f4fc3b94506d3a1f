package dialect

import "fmt"

// Mode says how a claimed question set is asked: each names one whole
// behaviour, and the bridge turns it into what happens in one place (its
// route). Whatever the mode, with --questions desk askbridge asks a
// question set (not an approval) on the board only, where it counts as a
// round of the turn (a Board set still does not): a Render, Mirror,
// Extension or Forward request is not forwarded to the client then, and
// only an Observe message still goes on.
type Mode int

const (
	// Ask, the zero value: the message is askbridge's to answer. It is
	// asked with a permission request per question (on a tool call of
	// askbridge's own when the agent named none), and Reply answers the
	// agent. A notification cannot be answered: it is dropped, logged.
	Ask Mode = iota
	// AskForm is Ask, but to a client that renders forms the set is one
	// form (elicitation/create) instead of a permission request each.
	AskForm
	// Render: the message is a form the client can render as it is. To a
	// client that renders forms it goes untouched and is watched (on the
	// board for the desk, the notifiers and the deadline; the first answer
	// wins; ReadResponse reads the client's). To any other client it is
	// asked as Ask. Needs ReadResponse.
	Render
	// Observe: the message goes on to the client as it is, and askbridge
	// asks the set too (as Ask). The dialect answers the agent another way
	// (OpenCode's HTTP server): Reply's result is not sent.
	Observe
	// Mirror: the request goes on to the client untouched, whatever the
	// client, and is watched as Render's is. Needs ReadResponse.
	Mirror
	// Board: on the board only (the desk, the hub, the notifiers): nothing
	// reaches the client, and the set is no round of the turn.
	Board
	// Extension: an agent's extension request the client may implement. It
	// goes to the client first and is watched meanwhile; the client's
	// -32601 hands the set to askbridge, which asks it as Ask on the same
	// ticket. Requests only; needs ReadResponse.
	Extension
	// ExtensionForm is Extension asked as AskForm on the client's -32601.
	ExtensionForm
	// Forward: a request that goes to the client first, not watched;
	// askbridge asks it as Ask only when the client answers -32601.
	// Requests only.
	Forward

	modes // the number of modes; not one
)

var modeNames = [modes]string{"ask", "ask-form", "render", "observe", "mirror", "board", "extension", "extension-form", "forward"}

func (m Mode) String() string {
	if !m.Known() {
		return fmt.Sprintf("Mode(%d)", int(m))
	}
	return modeNames[m]
}

// Known reports whether m is one of the modes above.
func (m Mode) Known() bool { return m >= 0 && m < modes }
