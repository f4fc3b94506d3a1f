package desk

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
)

// The page is named from its first paint, before any pairing: the hub's is
// "hub" (it said "answer desk" until paired, then "inbox", the terminal
// inbox's name), the desk's "answer desk"; and the docs name each tab's
// title as the page does.
func TestThePageIsNamedBeforePairingAsTheDocsSay(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "desk-and-hub.md"))
	require.NoError(t, err)
	for _, hub := range []bool{false, true} {
		s, _ := newDesk(t, Options{Hub: hub})
		resp, err := http.Get(s.base() + "/") // no session: an unpaired browser
		require.NoError(t, err)
		var b [4096]byte
		n, _ := resp.Body.Read(b[:])
		resp.Body.Close()
		page := string(b[:n])
		name := map[bool]string{false: DeskName, true: HubName}[hub]
		assert.Contains(t, page, "<title>askbridge · "+name+"</title>")
		assert.Contains(t, page, `<h1>askbridge <span class="sub">`+name+`</span></h1>`)
		assert.True(t, strings.Contains(string(docs), fmt.Sprintf("`(3) askbridge · %s`", name)), "the docs give the %s's tab title", name)
	}
	assert.NotRegexp(t, regexp.MustCompile(`askbridge · inbox`), string(docs), "inbox is askbridge inbox's name, not a page's")
	app, err := os.ReadFile(filepath.Join("static", "app.js"))
	require.NoError(t, err)
	assert.NotContains(t, string(app), "askbridge · inbox", "the page does not rename itself once paired")
}

// Each route that answers through the desk's API is recorded as itself:
// the desk's page, the hub's page (it said "desk"), the terminal inbox
// through LocalHandler (it said "desk" too).
func TestTheDeskRecordsTheRouteUsed(t *testing.T) {
	for _, tc := range []struct {
		hub, local bool
		want       permission.Source
	}{{false, false, permission.SourceDesk}, {true, false, permission.SourceHub}, {true, true, permission.SourceInbox}} {
		s, board := newDesk(t, Options{Hub: tc.hub})
		tk := board.Open(permission.Request{SessionID: "s1", Questions: []permission.Question{dbQ}, Round: 1})
		path, body := "/question/"+tk.ID+"/reply", `{"answers":[["SQLite"]]}`
		if tc.local {
			w := httptest.NewRecorder()
			r := httptest.NewRequest("POST", "http://localhost"+path, strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			s.LocalHandler().ServeHTTP(w, r)
			require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		} else {
			code, out := do(t, s, "POST", path, body, nil)
			require.Equal(t, http.StatusOK, code, out)
		}
		<-tk.Done()
		assert.Equal(t, tc.want, tk.Result().Source, "hub %v, local %v", tc.hub, tc.local)
	}
}
