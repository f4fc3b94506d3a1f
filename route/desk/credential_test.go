package desk

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// browserPair pairs client (a browser, with its cookie jar) with s as the
// page does on a browser without an authenticator: the code for a ticket,
// the ticket for a session. It returns the key the page keeps.
func browserPair(t *testing.T, client *http.Client, s *Server, code string, noPasskeyApprovals bool) (key string, status int) {
	t.Helper()
	post := func(path, body string) (*http.Response, map[string]any) {
		resp, err := client.Post(s.base()+path, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp, out
	}
	resp, begun := post("/pair/begin", `{"code":"`+code+`","name":"laptop"}`)
	if resp.StatusCode != http.StatusOK {
		return "", resp.StatusCode
	}
	assert.Contains(t, begun["noPasskey"], "a passkey needs a host name", "127.0.0.1 takes no passkey")
	body, _ := json.Marshal(map[string]any{"ticket": begun["ticket"], "name": "laptop", "noPasskeyApprovals": noPasskeyApprovals})
	resp, done := post("/pair/finish", string(body))
	if resp.StatusCode != http.StatusOK {
		return "", resp.StatusCode
	}
	c := resp.Cookies()
	require.Len(t, c, 1)
	assert.Equal(t, s.cookieName(), c[0].Name)
	assert.True(t, c[0].HttpOnly, "HttpOnly")
	assert.Equal(t, http.SameSiteStrictMode, c[0].SameSite)
	assert.False(t, c[0].Secure, "no TLS here")
	assert.Equal(t, requestKeyOf(s, pairing.Session{Cookie: c[0].Value}), done["mac"], "pairing gives the key requests are proved with")
	return done["key"].(string), http.StatusOK
}

func getWith(t *testing.T, client *http.Client, s *Server, path, key string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.base()+path, nil)
	req.Header.Set(KeyHeader, key)
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A browser pairs with a code once; the session it gets is two halves,
// neither of which is enough alone; a revoked device is out at once.
func TestPairingOverHTTP(t *testing.T) {
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	s, board := newDesk(t, Options{})
	board.Open(permission.Request{SessionID: "a", Questions: []permission.Question{dbQ}})

	code, _ := s.Devices().NewCode()
	_, status := browserPair(t, browser, s, "WRNG-CODE", false)
	assert.Equal(t, http.StatusForbidden, status, "a wrong code")
	key, status := browserPair(t, browser, s, code, false)
	require.Equal(t, http.StatusOK, status)
	_, status = browserPair(t, &http.Client{}, s, code, false)
	assert.Equal(t, http.StatusForbidden, status, "the code is spent")

	code2, body := getWith(t, browser, s, "/question", key)
	assert.Equal(t, 200, code2)
	assert.Contains(t, body, "Which database?")
	code2, _ = getWith(t, browser, s, "/question", "")
	assert.Equal(t, 401, code2, "the cookie without the key: what another service on this host gets")
	code2, _ = getWith(t, &http.Client{}, s, "/question", key)
	assert.Equal(t, 401, code2, "the key without the cookie")

	code2, body = getWith(t, browser, s, "/api/devices", key)
	require.Equal(t, 200, code2)
	var devices []deviceInfo
	require.NoError(t, json.Unmarshal([]byte(body), &devices))
	require.Len(t, devices, 1)
	assert.True(t, devices[0].This)
	assert.False(t, devices[0].Passkey)
	assert.NotContains(t, body, "hash")

	req, _ := http.NewRequest("DELETE", s.base()+"/api/devices/"+devices[0].ID, nil)
	jarred := jar.Cookies(req.URL)
	require.Len(t, jarred, 1)
	require.NoError(t, Sign(req, requestKeyOf(s, pairing.Session{Cookie: jarred[0].Value})))
	resp, err := browser.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	code2, _ = getWith(t, browser, s, "/question", key)
	assert.Equal(t, 401, code2, "revoked")
}

// Two desks in one browser keep their own sessions: the cookie is named by
// port, since cookies ignore ports.
func TestTwoDesksInOneBrowserKeepTheirOwnSession(t *testing.T) {
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	a, boardA := newDesk(t, Options{})
	b, boardB := newDesk(t, Options{})
	boardA.Open(permission.Request{SessionID: "a", Questions: []permission.Question{dbQ}})
	boardB.Open(permission.Request{SessionID: "b", Questions: []permission.Question{langQ}})
	codeA, _ := a.Devices().NewCode()
	codeB, _ := b.Devices().NewCode()
	keyA, _ := browserPair(t, browser, a, codeA, false)
	keyB, _ := browserPair(t, browser, b, codeB, false)
	_, body := getWith(t, browser, a, "/question", keyA)
	assert.Contains(t, body, "Which database?")
	_, body = getWith(t, browser, b, "/question", keyB)
	assert.Contains(t, body, "Which languages?")
	status, _ := getWith(t, browser, b, "/question", keyA)
	assert.Equal(t, 401, status, "one desk's session is no key to the other")

	js := getPage(t, a, "/app.js") + getPage(t, a, "/pair.js")
	assert.True(t, strings.Contains(js, "localStorage") && strings.Contains(js, `"X-Askbridge-Key"`), "the page keeps its half of the session per origin")
	assert.False(t, strings.Contains(js, "document.cookie"), "the page never reads the cookie (HttpOnly)")
	assert.NotContains(t, js, "new EventSource", "EventSource cannot send the key")
}

func getPage(t *testing.T, s *Server, path string) string {
	t.Helper()
	resp, err := http.Get(s.base() + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, 200, resp.StatusCode)
	return string(b)
}

// A device paired without a passkey answers questions but approves only
// when the user opted in at pairing.
func TestApprovalNeedsPasskeyOrOptIn(t *testing.T) {
	s, board := newDesk(t, Options{})
	tk := openApproval(board)
	plain := authHeaders(s, sessionOf(t, s))
	code, body := do(t, s, http.MethodPost, "/question/"+tk.ID+"/reply", `{"answers":[["Allow once"]]}`, plain)
	assert.Equal(t, http.StatusForbidden, code, body)
	assert.Contains(t, body, "paired without one")
	code, _ = do(t, s, http.MethodPost, "/api/task/answer", `{"session_id":"s1","question_id":"`+tk.ID+`","answer":"Allow once"}`, plain)
	assert.Equal(t, http.StatusForbidden, code, "nor by the other route")
	code, _ = do(t, s, http.MethodPost, "/question/"+tk.ID+"/presence", `{"answers":[["Allow once"]]}`, plain)
	assert.Equal(t, http.StatusForbidden, code)

	_, optIn, err := s.Devices().Add("old laptop", "", nil, nil, true)
	require.NoError(t, err)
	code, body = do(t, s, http.MethodPost, "/question/"+tk.ID+"/reply", `{"answers":[["Allow once"]]}`, authHeaders(s, optIn))
	require.Equal(t, http.StatusOK, code, body)
	<-tk.Done()
	assert.Equal(t, []string{"Allow once"}, tk.Result().Answers[0].Answer.Labels)
}
