package record

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/permission"
)

// A recording keeps no secret answer (permission.SecretText). The client's
// response to a permission request that asks a secret question has its
// _meta.customText replaced. That text, and every text the bridge says was
// typed for a secret question (at the desk, say: relay.Relay.Conceal), then
// becomes the placeholder in every string of every line recorded after it
// (askbridge's reply to the agent, an agent repeating it). Member names and
// a message's own jsonrpc, method and id stay, so the recording replays: a
// client line carries the placeholder, and the agent is then given it.

// MinConcealed is the shortest text replaced inside a longer string; a
// shorter one is replaced only where it is a whole string, lest "ab" turn
// every word that holds it into the placeholder.
const MinConcealed = 4

// secrets is what a recording hides; the recording guards it.
type secrets struct {
	calls   map[string]bool // keys of askbridge's requests whose response carries a secret
	texts   []string
	needles [][]byte // the texts as JSON strings hold them, without quotes
}

// concealResponse says that the response to askbridge's request key
// carries a secret in its _meta.customText.
func (s *secrets) concealResponse(key string) {
	if s.calls == nil {
		s.calls = map[string]bool{}
	}
	s.calls[key] = true
}

// Conceal keeps texts out of the rest of the recording, if there is one:
// typed answers to secret questions.
func (rec *Recording) Conceal(texts ...string) {
	if rec == nil || len(texts) == 0 {
		return
	}
	rec.relay.Recording(func(relay.RecordWriter) {
		for _, t := range texts {
			rec.secrets.add(t)
		}
	})
}

func (s *secrets) add(text string) {
	if text == "" || text == permission.SecretText {
		return
	}
	for _, t := range s.texts {
		if t == text {
			return
		}
	}
	s.texts = append(s.texts, text)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(text)
	plain := bytes.Clone(b.Bytes()[1 : b.Len()-2]) // no quotes, no newline
	escaped, _ := json.Marshal(text)
	s.needles = append(s.needles, plain)
	if escaped = escaped[1 : len(escaped)-1]; !bytes.Equal(escaped, plain) {
		s.needles = append(s.needles, escaped)
	}
}

// hide is msg with the secrets hidden; the recording is held.
func (rec *Recording) hide(msg []byte) []byte {
	s := &rec.secrets
	if len(s.calls) > 0 {
		if key, ok := relay.ResponseKey(msg); ok && s.calls[key] {
			delete(s.calls, key)
			if out, err := rewriteStrings(msg, s.customText); err == nil {
				msg = out
			}
		}
	}
	if !s.mentioned(msg) {
		return msg
	}
	out, err := rewriteStrings(msg, s.hide)
	if err != nil {
		// Not JSON encoding/json reads (a raw control character): hide
		// the text where it stands.
		out = msg
		for _, n := range s.needles {
			out = bytes.ReplaceAll(out, n, []byte(permission.SecretText))
		}
	}
	return out
}

// customText replaces the typed text of a permission response, where
// permission.ParseOutcome reads it, and hides it from then on.
func (s *secrets) customText(path []string, v string) string {
	p := strings.Join(path, ".")
	if p != "result.outcome._meta.customText" && p != "result._meta.customText" {
		return v
	}
	s.add(v)
	if typed, err := permission.Typed(v); err == nil {
		s.add(typed)
	}
	return permission.SecretText
}

func (s *secrets) mentioned(msg []byte) bool {
	for _, n := range s.needles {
		if bytes.Contains(msg, n) {
			return true
		}
	}
	return false
}

// hide replaces the secrets in one string of a message.
func (s *secrets) hide(path []string, v string) string {
	if len(path) == 1 && (path[0] == "jsonrpc" || path[0] == "method" || path[0] == "id") {
		return v
	}
	for _, t := range s.texts {
		switch {
		case v == t:
			return permission.SecretText
		case len(t) >= MinConcealed:
			v = strings.ReplaceAll(v, t, permission.SecretText)
		}
	}
	return v
}

// rewriteStrings re-encodes the JSON value in msg with each string value
// passed through f, given the member names leading to it (an array element
// adds none); member names and their order are kept.
func rewriteStrings(msg []byte, f func(path []string, v string) string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	type frame struct {
		object, wantKey bool
		n               int
	}
	var stack []frame
	var path []string // one entry per open object: the member being read
	out := make([]byte, 0, len(msg)+32)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			if stack[len(stack)-1].object {
				path = path[:len(path)-1]
			}
			stack = stack[:len(stack)-1]
			out = append(out, byte(d))
			continue
		}
		key := false
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			switch {
			case top.object && top.wantKey:
				key, top.wantKey = true, false
				if top.n > 0 {
					out = append(out, ',')
				}
			case top.object:
				out = append(out, ':')
				top.wantKey = true
				top.n++
			default:
				if top.n > 0 {
					out = append(out, ',')
				}
				top.n++
			}
		}
		switch v := tok.(type) {
		case json.Delim:
			out = append(out, byte(v))
			stack = append(stack, frame{object: v == '{', wantKey: v == '{'})
			if v == '{' {
				path = append(path, "")
			}
		case string:
			if key {
				path[len(path)-1] = v
			} else {
				v = f(path, v)
			}
			b, _ := json.Marshal(v)
			out = append(out, b...)
		case json.Number:
			out = append(out, v...)
		case bool:
			out = strconv.AppendBool(out, v)
		case nil:
			out = append(out, "null"...)
		}
	}
}
