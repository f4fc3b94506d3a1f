//go:build live

package live

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/askbridge/askbridge/live/harness"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// codex-acp 2.6.0 signs in to ChatGPT with a device code only through a URL
// elicitation, and only when the client advertises elicitation.url. Its
// native Codex takes the sign-in server from CODEX_APP_SERVER_LOGIN_ISSUER,
// so here the real agent signs in against a fake one on 127.0.0.1, through
// askbridge, for a client with no elicitation at all.

// signInCode is the user code the fake issuer hands out.
const signInCode = "ABCD-12345"

// fakeIssuer is ChatGPT's sign-in server as Codex's device-code login uses
// it: a user code, a token endpoint polled until the user has signed in
// (open), and the code exchange.
type fakeIssuer struct {
	*httptest.Server
	mu     sync.Mutex
	open   bool
	polled int
}

func newFakeIssuer(t *testing.T) *fakeIssuer {
	f := &fakeIssuer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/deviceauth/usercode"):
			json.NewEncoder(w).Encode(map[string]string{"device_auth_id": "dev-1", "user_code": signInCode, "interval": "1"})
		case strings.HasSuffix(r.URL.Path, "/deviceauth/token"):
			f.mu.Lock()
			f.polled++
			open := f.open
			f.mu.Unlock()
			if !open {
				w.WriteHeader(http.StatusForbidden) // not signed in yet
				w.Write([]byte(`{"error":"authorization_pending"}`))
				return
			}
			w.Write([]byte(`{"authorization_code":"code-1","code_challenge":"ch","code_verifier":"ver"}`))
		case r.URL.Path == "/oauth/token":
			seg := func(v any) string { b, _ := json.Marshal(v); return base64.RawURLEncoding.EncodeToString(b) }
			jwt := seg(map[string]string{"alg": "none", "typ": "JWT"}) + "." + seg(map[string]any{"email": "user@example.com", "exp": 4102444800,
				"https://api.openai.com/auth": map[string]string{"chatgpt_account_id": "acc-1", "chatgpt_plan_type": "plus", "chatgpt_user_id": "user-1"}}) + ".sig"
			json.NewEncoder(w).Encode(map[string]string{"id_token": jwt, "access_token": jwt, "refresh_token": "rt-1"})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeIssuer) signIn() {
	f.mu.Lock()
	f.open = true
	f.mu.Unlock()
}

// signInRun starts codex-acp through askbridge with flags, for a client
// with no elicitation, and returns the run and the initialize result.
func signInRun(t *testing.T, issuer *fakeIssuer, p *permissionLog, flags ...string) (*harness.Run, json.RawMessage) {
	m := model(t, harness.Codex.Tool)
	r := harness.Start(t, harness.Codex, harness.Options{ModelURL: m.URL, Wrap: harness.Askbridge(askbridge(t), flags...),
		Env:    []string{"CODEX_APP_SERVER_LOGIN_ISSUER=" + issuer.URL},
		TTY:    true, // the desk shows its pairing code on askbridge's terminal only
		Client: harness.Client{RequestPermission: p.handle}})
	init, err := r.Initialize(harness.NoFeatures)
	require.NoError(t, err)
	return r, init
}

// clientSaw is every agent-bound-to-client line of the run, joined.
func clientSaw(r *harness.Run) string {
	var b strings.Builder
	for _, l := range r.Lines() {
		if l.Dir == harness.FromAgent {
			b.Write(l.Msg)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var signInFixtures = map[string]fixtureCase{
	"TestCodexDeviceCodeSignInAtTheDesk": {"codex-signin-desk", `codex-acp's device-code sign-in (elicitation/create mode "url", tied to the authenticate request) goes to the desk, not to the client, which has no URL mode and no session to ask in; "I opened it" at the desk is {"action":"accept"}; codex-acp's elicitation/complete stops at askbridge.`},
}

// The sign-in reaches the desk with the full address and the code; "I
// opened it" there gives codex-acp accept; the editor, which has no URL
// mode, sees nothing of the elicitation, and its authenticate is answered.
func TestCodexDeviceCodeSignInAtTheDesk(t *testing.T) {
	issuer := newFakeIssuer(t)
	addr := freeAddr(t)
	record := recordFixture(t, signInFixtures, "Agent: @agentclientprotocol/codex-acp 2.6.0 (Codex 0.166.0), device-code sign-in against a fake sign-in server on 127.0.0.1 (CODEX_APP_SERVER_LOGIN_ISSUER), recorded through askbridge --desk.\nClient: no elicitation capability (fs and terminal off).\n", nil)
	t.Cleanup(func() { // once askbridge has stopped and flushed its recording
		rec, err := os.ReadFile(strings.TrimPrefix(record, "--record="))
		require.NoError(t, err)
		assert.Contains(t, string(rec), `{"action":"accept"}`, "codex-acp got accept")
		assert.Contains(t, string(rec), `"method":"elicitation/complete"`, "codex-acp completed the sign-in")
	})
	p := &permissionLog{}
	r, init := signInRun(t, issuer, p, "--log-level=debug", "--desk", addr, record)
	deskScreens.Store(addr, r.Terminal)
	assert.Contains(t, string(init), `"chat-gpt-device-code"`, "askbridge advertised URL mode: codex-acp offers the device code")

	type authResult struct {
		res json.RawMessage
		err error
	}
	auth := make(chan authResult, 1)
	go func() {
		res, err := r.Call("authenticate", map[string]string{"methodId": "chat-gpt-device-code"})
		auth <- authResult{res, err}
	}()
	listed, err := deskAnswer(t, addr, [][]string{{"I opened it"}})
	require.NoError(t, err)
	var sets []struct {
		SessionID string `json:"sessionID"`
		Questions []struct {
			Header, Question, Link string
			Options                []struct{ Label string }
		} `json:"questions"`
	}
	require.NoError(t, json.Unmarshal(listed, &sets))
	require.Len(t, sets, 1)
	q := sets[0].Questions[0]
	assert.Equal(t, "Sign in to ChatGPT and enter this code: "+signInCode, q.Question, "codex-acp's message, the code included")
	assert.Equal(t, issuer.URL+"/codex/device", q.Link, "the verification page in full")
	assert.Equal(t, "(no session)", sets[0].SessionID)
	issuer.signIn() // the user entered the code on the page

	var a authResult
	select {
	case a = <-auth:
	case <-time.After(90 * time.Second):
		t.Fatal("authenticate never returned")
	}
	require.NoError(t, a.err, "signed in")
	assert.JSONEq(t, `{}`, string(a.res))
	saw := clientSaw(r)
	assert.NotContains(t, saw, "elicitation", "the editor has no URL mode: nothing of the elicitation reaches it")
	assert.NotContains(t, saw, "session/request_permission", "outside a session there is nothing to ask the editor in")
	assert.Empty(t, p.got())
	assert.Contains(t, r.Stderr(), "elicitation/complete stops here")
}

// With nothing but the editor there (no desk, hub or notifier), the sign-in
// is declined at once with a log line, and codex-acp's authenticate fails
// rather than waiting.
func TestCodexDeviceCodeSignInWithNobodyThere(t *testing.T) {
	issuer := newFakeIssuer(t)
	p := &permissionLog{}
	r, _ := signInRun(t, issuer, p, "--hub=off")
	_, err := r.Call("authenticate", map[string]string{"methodId": "chat-gpt-device-code"})
	require.Error(t, err, "a declined sign-in does not sign in")
	assert.Contains(t, err.Error(), "Sign-in did not complete")
	assert.Contains(t, r.Stderr(), "declined a sign-in page outside a session")
	assert.Contains(t, r.Stderr(), "host="+strings.TrimPrefix(issuer.URL, "http://"))
	assert.NotContains(t, clientSaw(r), "elicitation")
}
