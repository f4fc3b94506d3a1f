package urlmode

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// Elicitation is ACP's URL-mode elicitation: elicitation/create with
// mode "url" sends the user to a web page (a sign-in's verification page,
// an MCP server's OAuth), and the agent's elicitation/complete ends it.
// Agents send it only to a client that advertised
// clientCapabilities.elicitation.url; codex-acp 2.6.0 refuses its
// device-code sign-in without it ("Device code authentication requires URL
// elicitation support"). askbridge advertises it for clients that lack it.
//
// A client that has URL mode gets the elicitation untouched, and the set is
// watched (on the desk, the hub, the notifiers: the first answer wins).
// For one that has not, askbridge asks a permission request whose title is
// the message (a sign-in's code included) and whose content is the full
// address with its host: "I opened it" is {"action":"accept"}, "Cancel"
// {"action":"decline"}, dismissing it {"action":"cancel"}. The desk and
// the hub show the address as a link the user chooses to follow; askbridge
// never fetches or opens it, and never turns it into a form. An
// elicitation tied to a request rather than a session (a sign-in during
// authenticate) cannot be a permission request: it goes to the desk, the
// hub and the notifiers only, and is declined, with a log line, when none
// of them is there.
type Elicitation struct {
	mu    sync.Mutex
	open  map[string]chan struct{} // elicitationId -> closed by elicitation/complete
	order []string                 // the keys of open, oldest first, to bound it
}

// The options of a URL elicitation, and the header it is listed under.
const (
	Opened    = "I opened it"
	Cancel    = "Cancel"
	urlHeader = "Open link"
)

// NoSession is the session a request-scoped elicitation is listed under.
const NoSession = "(no session)"

// urlMaxOpen bounds the elicitations remembered for their completion: an
// agent completes only the ones accepted, and an id is never reused.
const urlMaxOpen = 64

// Name implements Dialect.
func (*Elicitation) Name() string { return "url-elicitation" }

// Hooks implements Dialect.
func (*Elicitation) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: acp.ClientMethodElicitationCreate}}
}

// Advertise implements Advertiser: an empty URL capability object.
func (*Elicitation) Advertise() []dialect.Default {
	return []dialect.Default{{
		Path:  []string{"clientCapabilities", "elicitation", "url"},
		Value: dialect.MustJSON(acp.ElicitationUrlCapabilities{}),
	}}
}

// Rewrites implements Rewriter: elicitation/complete withdraws the set it
// names, and reaches the client only when the client showed the
// elicitation itself.
func (d *Elicitation) Rewrites(h dialect.Host) []dialect.Rewrite {
	return []dialect.Rewrite{{Hook: dialect.Hook{From: dialect.FromAgent, Method: acp.ClientMethodElicitationComplete}, Intercept: func(m *relay.Message) relay.Verdict {
		var p acp.UnstableCompleteElicitationNotification
		if m.Params(&p) == nil {
			d.complete(string(p.ElicitationId))
		}
		if h.ClientRendersURLs() {
			return relay.Pass
		}
		h.Logger().Debug("url-elicitation: the editor has no URL mode: elicitation/complete stops here", "elicitationId", p.ElicitationId)
		return relay.Verdict{Take: true}
	}}}
}

// urlParams are elicitation/create's params in URL mode.
type urlParams struct {
	Mode          string          `json:"mode"`
	SessionID     string          `json:"sessionId"`
	ToolCallID    string          `json:"toolCallId"`
	RequestID     json.RawMessage `json:"requestId"`
	Message       string          `json:"message"`
	URL           string          `json:"url"`
	ElicitationID string          `json:"elicitationId"`
}

// urlAction is the result of a URL elicitation: no content, only the action.
type urlAction struct {
	Action string `json:"action"`
}

// errUnattended is a request-scoped elicitation with nowhere to go.
var errUnattended = errors.New("nothing but the editor is there to show it (no desk, hub or notifier), and the editor cannot show an elicitation outside a session")

// Claim implements Dialect: every elicitation/create in URL mode, whatever
// else it says, so that none becomes a form.
func (d *Elicitation) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var p urlParams
	if m.Params(&p) != nil || p.Mode != "url" {
		return nil
	}
	q := permission.Question{Question: p.Message, Header: urlHeader, Link: p.URL, Kind: permission.Link,
		Options: []permission.Option{{Label: Opened}, {Label: Cancel}}}
	invalid := p.check()
	withdrawn := d.track(p.ElicitationID)
	scoped := p.SessionID != ""
	c := &dialect.Claim{
		SessionID:  p.SessionID,
		ToolCallID: p.ToolCallID,
		Mode:       urlMode(h, scoped),
		Withdrawn:  withdrawn,
		ReadResponse: func(resp json.RawMessage) permission.Result {
			return readURLResponse(resp, q)
		},
		Questions: func(context.Context) ([]permission.Question, error) {
			switch {
			case invalid != nil:
				return nil, invalid
			case !scoped && !h.ClientRendersURLs() && !h.Attended():
				return nil, errUnattended
			}
			return []permission.Question{q}, nil
		},
		Reply: func(_ context.Context, o dialect.Outcome) (any, error) {
			d.forget(p.ElicitationID, withdrawn)
			switch {
			case o.Status == dialect.Invalid && errors.Is(o.Err, errUnattended):
				// The host only: a sign-in address may carry a state or a code.
				h.Logger().Warn("url-elicitation: declined a sign-in page outside a session", "host", host(p.URL), "requestId", string(p.RequestID), "why", o.Err)
			case o.Status == dialect.Invalid:
				h.Logger().Warn("url-elicitation: cannot show this elicitation", "err", o.Err)
				return nil, relay.InvalidParams("askbridge: "+o.Err.Error(), nil)
			case o.Status == dialect.Cancelled:
				return urlAction{"cancel"}, nil
			case o.Status == dialect.Answered && opened(o.Result):
				return urlAction{"accept"}, nil
			}
			return urlAction{"decline"}, nil
		},
	}
	if !scoped {
		c.SessionID = NoSession
	}
	return c
}

// urlMode is how a URL elicitation is asked: a client that shows URLs has
// it, watched; one that does not gets it as a question if it belongs to a
// session, else it is for the desk only (a sign-in before any session).
func urlMode(h dialect.Host, scoped bool) dialect.Mode {
	switch {
	case h.ClientRendersURLs():
		return dialect.Mirror
	case !scoped:
		return dialect.Board
	}
	return dialect.Ask
}

// check names what makes the params no URL elicitation askbridge can show:
// the spec's required fields, and an address the desk can offer as a link.
func (p urlParams) check() error {
	switch {
	case strings.TrimSpace(p.Message) == "":
		return errors.New("elicitation/create url: message: required")
	case p.ElicitationID == "":
		return errors.New("elicitation/create url: elicitationId: required")
	case p.URL == "":
		return errors.New("elicitation/create url: url: required")
	}
	u, err := url.Parse(p.URL)
	if err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
		return fmt.Errorf("elicitation/create url: url %q: want an absolute http or https address", p.URL)
	}
	return nil
}

// host is the host of an address, for a log line.
func host(link string) string {
	if u, err := url.Parse(link); err == nil {
		return u.Host
	}
	return ""
}

// opened reports whether the user said they opened the link.
func opened(r permission.Result) bool {
	return len(r.Answers) == 1 && len(r.Answers[0].Answer.Labels) == 1 && r.Answers[0].Answer.Labels[0] == Opened
}

// readURLResponse reads the client's own answer to the elicitation.
func readURLResponse(resp json.RawMessage, q permission.Question) permission.Result {
	var r struct {
		Result *urlAction `json:"result"`
	}
	if json.Unmarshal(resp, &r) != nil || r.Result == nil {
		return permission.Result{Cancelled: true, Reason: "the editor failed to show it"}
	}
	label := ""
	switch r.Result.Action {
	case "accept":
		label = Opened
	case "decline":
		label = Cancel
	default:
		return permission.Result{Cancelled: true, Reason: "dismissed in the editor"}
	}
	return permission.Result{Answers: []permission.Answered{{Question: q, Answer: permission.Answer{Labels: []string{label}}, Path: "questions[0]"}}}
}

// track remembers an elicitation until the agent completes it; the
// channel closes then.
func (d *Elicitation) track(id string) chan struct{} {
	ch := make(chan struct{})
	if id == "" {
		return ch
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.open == nil {
		d.open = map[string]chan struct{}{}
	}
	if _, ok := d.open[id]; !ok {
		d.order = append(d.order, id)
	}
	d.open[id] = ch
	for len(d.order) > urlMaxOpen {
		delete(d.open, d.order[0])
		d.order = d.order[1:]
	}
	return ch
}

// complete closes the channel of the elicitation id, once.
func (d *Elicitation) complete(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if ch, ok := d.open[id]; ok {
		close(ch)
		d.drop(id)
	}
}

// forget stops tracking id once its set has been answered (unless the id
// was reused by a newer elicitation since).
func (d *Elicitation) forget(id string, ch chan struct{}) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.open[id] == ch {
		d.drop(id)
	}
}

// drop removes id; d.mu is held.
func (d *Elicitation) drop(id string) {
	delete(d.open, id)
	for i, k := range d.order {
		if k == id {
			d.order = append(d.order[:i], d.order[i+1:]...)
			break
		}
	}
}
