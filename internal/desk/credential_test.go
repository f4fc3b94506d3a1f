package desk

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two desks in one browser: opening the second must not take the first's
// credential, and no desk leaves its token in the browser for every other
// service on 127.0.0.1 (cookies ignore ports). The browser here is a
// client with a cookie jar doing what the page does: load the printed URL,
// then call the API with the token from that URL.
func TestTwoDesksInOneBrowserKeepTheirOwnCredential(t *testing.T) {
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	a, boardA := newDesk(t, Options{Token: "token-of-desk-A-0001"})
	b, boardB := newDesk(t, Options{Token: "token-of-desk-B-0002"})
	boardA.Open(permission.Request{SessionID: "a", Questions: []permission.Question{dbQ}})
	boardB.Open(permission.Request{SessionID: "b", Questions: []permission.Question{langQ}})

	for _, d := range []*Server{a, b} {
		resp, err := browser.Get(d.URL())
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode)
		assert.Empty(t, resp.Header.Values("Set-Cookie"), "the desk sets no cookie")
	}
	loopback, _ := url.Parse("http://127.0.0.1/")
	assert.Empty(t, jar.Cookies(loopback), "nothing for other services on 127.0.0.1")

	for _, tt := range []struct {
		d            *Server
		token, wants string
	}{{a, "token-of-desk-A-0001", "Which database?"}, {b, "token-of-desk-B-0002", "Which languages?"}} {
		req, _ := http.NewRequest("GET", tt.d.base()+"/question", nil)
		req.Header.Set("Authorization", "Bearer "+tt.token)
		resp, err := browser.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, 200, resp.StatusCode, "each desk still answers its page after the other was opened")
		assert.Contains(t, string(body), tt.wants)
	}
	// The page keeps the token per tab and origin (port included) and
	// sends it itself; it never relies on a cookie.
	js := getPage(t, a, "/app.js")
	assert.True(t, strings.Contains(js, "sessionStorage") && strings.Contains(js, `Authorization: "Bearer "`), "app.js keeps the token itself")
	assert.False(t, strings.Contains(js, "document.cookie"), "app.js uses no cookie")
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

func TestShortTokensAreRefused(t *testing.T) {
	for _, tok := range []string{"x", "fifteen-chars-x", "ünïcödé-fifteen"} {
		_, err := Listen("127.0.0.1:0", permission.NewBoard(), Options{Token: tok})
		assert.ErrorContains(t, err, "it needs at least 16", tok)
	}
	d, err := Listen("127.0.0.1:0", permission.NewBoard(), Options{Token: strings.Repeat("k", 16)})
	require.NoError(t, err)
	d.Close()
	d, err = Listen("127.0.0.1:0", permission.NewBoard(), Options{})
	require.NoError(t, err, "no token: a random one")
	assert.Len(t, d.Token(), 32)
	d.Close()
}
