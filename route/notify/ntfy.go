package notify

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf16"

	"github.com/askbridge/askbridge/permission"
)

// What an ntfy notification says, and the buttons that answer it.
//
// ntfy shows at most three action buttons (its server refuses a fourth):
// a question of two options gets both as buttons and a third, "Open desk";
// one of three gets three buttons, and the notification itself still opens
// the desk (Click). A question of four options would get a subset, which
// hides choices: it gets "Open desk" only.

// maxActions is ntfy's limit on a notification's actions.
const maxActions = 3

// ntfyAction is one action button, in ntfy's JSON form.
type ntfyAction struct {
	Action string `json:"action"` // "http" or "view"
	Label  string `json:"label"`
	URL    string `json:"url"`
	Method string `json:"method,omitempty"`
	Clear  bool   `json:"clear,omitempty"`
}

// Tappable is the question of e a notification's buttons can answer: a
// set the board's gate lets a button answer (never an approval: a button's
// token is a bearer secret that whoever reads the notification, the ntfy
// topic's subscribers, a webhook's logs, holds; an approval's notification
// opens the page), that waits, of one question, single-choice, whose picks
// bring no follow-ups (a tap cannot answer those).
func Tappable(e Event) (permission.Question, bool) {
	button := permission.By{Route: permission.RouteTap, Proof: permission.ProofToken}
	if permission.Gate(permission.Pending{Kind: e.Kind}, button) != nil || e.Event != Asked && e.Event != Expiring || len(e.Questions) != 1 {
		return permission.Question{}, false
	}
	q := e.Questions[0]
	if q.Kind.Many || len(q.FollowUps) > 0 || len(q.Options) == 0 {
		return permission.Question{}, false
	}
	return q, true
}

// ntfyBody is the notification's text: for a set that waits, its
// questions and their choices, then the desk link; else what became of it.
func ntfyBody(e Event) string {
	if e.Event == Expiring {
		e.Event = Asked // the same choices, still open
	}
	text := e.Text()
	if e.Event == Asked && len(e.Questions) > 0 {
		// Text leaves the first question to the title, unless cut there;
		// a phone's lock screen may show the body alone.
		if _, cut := e.head(); !cut {
			text = e.Questions[0].Question + "\n" + text
		}
	}
	if text == "" {
		text = e.Title()
	}
	return text
}

// actions are the buttons of e: one that answers with each option of a
// tappable question (each its own one-time token, posted to the public
// URL), and one to open the desk where there is room. An approval gets
// that one only. Nil without a public URL: a button must reach the desk
// from a phone.
func (w *Webhook) actions(e Event) []ntfyAction {
	if w.public == "" || w.taps == nil || e.base() != Asked && e.base() != Expiring {
		return nil
	}
	var out []ntfyAction
	if q, ok := Tappable(e); ok && len(q.Options) <= maxActions {
		for i, o := range q.Options {
			out = append(out, ntfyAction{Action: "http", Label: shorten(o.Label, 40), Method: "POST", Clear: true,
				URL: w.public + "/tap/" + w.taps.Mint(e.ID, i)})
		}
	}
	if len(out) < maxActions && e.DeskURL != "" {
		label := "Open desk"
		if e.Kind == permission.KindApproval {
			label = "Open to approve"
		}
		out = append(out, ntfyAction{Action: "view", Label: label, URL: e.DeskURL})
	}
	return out
}

// publicPage is the desk's page at the public URL: what a phone opens.
// Never with a credential: only a paired device gets in.
func publicPage(public, deskURL string) string {
	if deskURL == "" {
		return ""
	}
	return public + "/"
}

// pageLink is raw, a page's address, without what could be a credential
// in it (a user and password, a query such as ?token=, a fragment): a
// notification's link is read by whoever reads the notification, and
// opens the page, where a paired device needs nothing more.
func pageLink(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// asciiJSON is v as JSON with every non-ASCII character escaped (\uXXXX),
// so that it passes as a header through any proxy; ntfy reads it the same.
func asciiJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var s strings.Builder
	for _, r := range string(b) {
		switch {
		case r < 0x80:
			s.WriteRune(r)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&s, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&s, `\u%04x`, r)
		}
	}
	return s.String(), nil
}

// PublicURLNote is logged once when the webhook could carry answer
// buttons but has no public URL to point them at.
const PublicURLNote = "webhook: notifications carry no answer buttons; set --public-url to the desk's address as your phone reaches it to have them"
