package urlmode

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/askbridge/askbridge/permission"
)

// Only what the spec requires, and an address the desk can offer as a
// link: absolute, http or https, with a host.
func TestCheck(t *testing.T) {
	ok := urlParams{Mode: "url", Message: "Sign in", ElicitationID: "e1", URL: "https://auth.openai.com/codex/device"}
	assert.NoError(t, ok.check())
	for url, want := range map[string]string{
		"javascript:alert(1)":      "want an absolute http or https address",
		"file:///etc/passwd":       "want an absolute http or https address",
		"/codex/device":            "want an absolute http or https address",
		"https://":                 "want an absolute http or https address",
		"":                         "url: required",
		"http://127.0.0.1:8080/cb": "",
	} {
		p := ok
		p.URL = url
		if err := p.check(); want == "" {
			assert.NoError(t, err, url)
		} else {
			assert.ErrorContains(t, err, want, url)
		}
	}
	p := ok
	p.ElicitationID = ""
	assert.ErrorContains(t, p.check(), "elicitationId: required")
	p = ok
	p.Message = " "
	assert.ErrorContains(t, p.check(), "message: required")
}

// The client's own answer, read as the set's result.
func TestReadURLResponse(t *testing.T) {
	q := permission.Question{Question: "Sign in", Kind: permission.AnswerKind{Link: true}, Link: "https://x.example"}
	for resp, want := range map[string][]string{
		`{"jsonrpc":"2.0","id":0,"result":{"action":"accept"}}`:           {Opened},
		`{"jsonrpc":"2.0","id":0,"result":{"action":"decline"}}`:          {Cancel},
		`{"jsonrpc":"2.0","id":0,"result":{"action":"cancel"}}`:           nil,
		`{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"no"}}`: nil,
	} {
		r := readURLResponse(json.RawMessage(resp), q)
		if want == nil {
			assert.True(t, r.Cancelled, resp)
			continue
		}
		assert.Equal(t, want, r.Answers[0].Answer.Labels, resp)
		assert.True(t, opened(r) == (want[0] == Opened), resp)
	}
}
