package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/askbridge/askbridge/internal/answertoken"
)

// TokenEnv names the environment variable whose value, when set, goes to
// the webhook as "Authorization: Bearer <value>" (an ntfy access token),
// so that it stays out of the command line. Credentials in the URL
// (https://user:pass@host/topic) are sent as basic auth.
const TokenEnv = "ASKBRIDGE_NOTIFY_TOKEN"

// Webhook POSTs every event to a URL. By default it speaks ntfy's publish
// convention, which plain receivers read as well: a plain-text body with
// Title, Tags, Priority and Click headers. A URL ending in "#json" (the
// fragment is never sent) gets the Event as JSON instead.
type Webhook struct {
	url    string // without the fragment
	shown  string // the URL as logs show it: scheme and host, no topic or password
	json   bool
	token  string
	client *http.Client
	// public and taps make the answer buttons: the desk's public URL (no
	// trailing slash) and the key its tap route redeems. See actions.
	public string
	taps   *answertoken.Key
}

// Buttons lets the ntfy-style webhook add answer buttons that post to
// public (--public-url), each with a token of taps. Without either, none.
func (w *Webhook) Buttons(public string, taps *answertoken.Key) {
	w.public, w.taps = strings.TrimRight(public, "/"), taps
}

// NewWebhook checks raw and returns its webhook.
func NewWebhook(raw string) (*Webhook, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("--notify-url %q: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("--notify-url %q: want an http:// or https:// URL, such as https://ntfy.sh/your-topic", u.Redacted())
	}
	w := &Webhook{token: os.Getenv(TokenEnv), client: &http.Client{CheckRedirect: refuseRedirect}}
	switch u.Fragment {
	case "":
	case "json":
		w.json = true
	default:
		return nil, fmt.Errorf("--notify-url %q: unknown #%s; add #json for the event as JSON, or nothing for plain text", u.Redacted(), u.Fragment)
	}
	u.Fragment, u.RawFragment = "", ""
	// A public ntfy topic's name is its only secret: logs get the host.
	w.url, w.shown = u.String(), u.Scheme+"://"+u.Host+"/…"
	return w, nil
}

func (w *Webhook) name() string     { return "webhook " + w.shown }
func (w *Webhook) wants(Event) bool { return true }

func (w *Webhook) deliver(ctx context.Context, e Event) error {
	req, err := w.request(ctx, e)
	if err != nil {
		return err
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return w.hideURL(err)
	}
	defer resp.Body.Close()
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16)) // let the connection be reused
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST: %s: %s", resp.Status, strings.TrimSpace(string(snippet)))
	}
	return nil
}

// hideURL keeps the URL out of an error: Go's *url.Error spells it in full,
// and a public ntfy topic's name is its password. The host is enough to
// say where a delivery failed.
func (w *Webhook) hideURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %s: %w", ue.Op, w.shown, ue.Err)
	}
	return err
}

// refuseRedirect follows no redirect. Following one would send the body,
// which holds the desk link with its token, and the Authorization header or
// the URL's password to wherever the receiver points, and a same-origin
// redirect would need them resent all the same to deliver anything. The
// error names the target's host only; the user puts the URL it points to in
// --notify-url.
func refuseRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("%s redirected to %s://%s/…; askbridge follows no redirect: use the URL it points to",
		req.Response.Status, req.URL.Scheme, req.URL.Host) // never the path, query or user
}

// request builds the POST for e.
func (w *Webhook) request(ctx context.Context, e Event) (*http.Request, error) {
	var body []byte
	h := http.Header{"X-Askbridge-Event": {e.Event}, "X-Askbridge-Id": {e.ID}}
	if w.json {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		body = b
		h.Set("Content-Type", "application/json")
	} else {
		if w.public != "" {
			// The link in the text and behind the notification opens
			// where the phone can reach the desk.
			e.DeskURL = publicPage(w.public, e.DeskURL)
		}
		body = []byte(ntfyBody(e))
		h.Set("Content-Type", "text/plain; charset=utf-8")
		// ntfy reads UTF-8 headers, but not every proxy passes them:
		// RFC 2047, which ntfy decodes, keeps the title ASCII.
		h.Set("Title", mime.BEncoding.Encode("UTF-8", "askbridge: "+e.Title()))
		h.Set("Tags", ntfyTags[e.base()])
		h.Set("Priority", "low")
		if e.base() == Asked || e.base() == Expiring {
			h.Set("Priority", "high") // an agent is blocked on it
		}
		if e.DeskURL != "" {
			h.Set("Click", e.DeskURL)
		}
		if acts := w.actions(e); len(acts) > 0 {
			v, err := asciiJSON(acts)
			if err != nil {
				return nil, err
			}
			h.Set("Actions", v)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if w.token != "" {
		req.Header.Set("Authorization", "Bearer "+w.token)
	}
	return req, nil
}

// ntfyTags are emoji short codes ntfy shows before the title.
var ntfyTags = map[string]string{
	Asked:     "question",
	Answered:  "white_check_mark",
	Cancelled: "x",
	Timeout:   "hourglass",
	Expiring:  "hourglass_flowing_sand",
}
