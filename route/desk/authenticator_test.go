package desk

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/route/desk/softkey"
)

// softKey is a passkey made in the test (route/desk/softkey): an
// authenticator that signs what it is told, with user verification or
// without, so that the server's own checks are what is tested. A copy of
// it is a clone of the authenticator (clone_test.go).
type softKey struct{ softkey.Key }

var b64u = base64.RawURLEncoding

const (
	flagUP = softkey.UP
	flagUV = softkey.UV
)

func newSoftKey(t *testing.T, origin string) *softKey {
	k, err := softkey.New(origin)
	require.NoError(t, err)
	return &softKey{*k}
}

// create answers /pair/begin's options: a credential as navigator.credentials.create's toJSON().
func (k *softKey) create(t *testing.T, challenge string, flags byte) json.RawMessage {
	b, err := k.Create(challenge, flags)
	require.NoError(t, err)
	return b
}

// get answers /presence's options: an assertion as navigator.credentials.get's toJSON().
func (k *softKey) get(t *testing.T, challenge string, flags byte) json.RawMessage {
	b, err := k.Get(challenge, flags)
	require.NoError(t, err)
	return b
}

// localhost is a browser at http://localhost:PORT (the name a passkey
// takes), with its cookie jar and, once paired, its key.
type localhost struct {
	t    *testing.T
	s    *Server
	http *http.Client
	key  string
	mac  string // the request key pairing gave (auth_mac.go)
}

func newLocalhost(t *testing.T, s *Server) *localhost {
	jar, _ := cookiejar.New(nil)
	return &localhost{t: t, s: s, http: &http.Client{Jar: jar}}
}

func (l *localhost) origin() string {
	return "http://localhost:" + strings.Split(l.s.ln.Addr().String(), ":")[1]
}

// post sends body to path as the page at localhost does; out, when set,
// takes the JSON answer.
func (l *localhost) post(path string, body any, out any) int {
	l.t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", l.s.base()+path, strings.NewReader(string(b)))
	require.NoError(l.t, err)
	req.Host = strings.TrimPrefix(l.origin(), "http://")
	req.Header.Set("Origin", l.origin())
	if l.mac != "" {
		require.NoError(l.t, Sign(req, l.mac))
	}
	resp, err := l.http.Do(req)
	require.NoError(l.t, err)
	defer resp.Body.Close()
	if out != nil {
		json.NewDecoder(resp.Body).Decode(out)
	}
	return resp.StatusCode
}

// pairWith pairs l with a passkey made by k (with flags).
func (l *localhost) pairWith(k *softKey, flags byte) int {
	code, _ := l.s.Devices().NewCode()
	var begun struct {
		Ticket    string
		PublicKey struct {
			PublicKey struct{ Challenge string }
		}
	}
	require.Equal(l.t, 200, l.post("/pair/begin", map[string]string{"code": code, "name": "test laptop"}, &begun))
	require.NotEmpty(l.t, begun.PublicKey.PublicKey.Challenge, "localhost takes a passkey")
	var done struct{ Key, MAC string }
	status := l.post("/pair/finish", map[string]any{"ticket": begun.Ticket, "name": "test laptop", "credential": k.create(l.t, begun.PublicKey.PublicKey.Challenge, flags)}, &done)
	l.key, l.mac = done.Key, done.MAC
	return status
}

// challenge asks for the passkey challenge of approving id with answers.
func (l *localhost) challenge(id string, answers [][]string) string {
	var opts struct {
		PublicKey struct {
			Challenge string
			RPID      string `json:"rpId"`
		}
	}
	require.Equal(l.t, 200, l.post("/question/"+id+"/presence", map[string]any{"answers": answers, "step": 0}, &opts))
	require.Equal(l.t, "localhost", opts.PublicKey.RPID)
	return opts.PublicKey.Challenge
}
