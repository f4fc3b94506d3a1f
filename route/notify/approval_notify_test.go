package notify

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/askbridge/askbridge/internal/answertoken"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openApproval puts an approval of "rm -rf ~/important" on b.
func openApproval(b *permission.Board) *permission.Ticket {
	a := &permission.Approval{ToolCall: json.RawMessage(`{"title":"rm -rf ~/important"}`), Options: []permission.ApprovalOption{
		{OptionID: "ok", Name: "Allow once", Kind: "allow_once"}, {OptionID: "no", Name: "Reject", Kind: "reject_once"}}}
	return b.Open(permission.Request{SessionID: "s", Round: 1, Approval: a, Questions: []permission.Question{{Header: "Approval",
		Question: "rm -rf ~/important", Options: []permission.Option{{Label: "Allow once"}, {Label: "Reject"}}}}})
}

// Notifications never approve: an approval's ntfy notification has no
// answer button, only one that opens the page, and neither it, its Click
// link nor its text carries a credential; a question's buttons keep their
// one-time tokens. A token minted for an approval all the same (a leaked
// key) does not answer it either.
func TestApprovalNotificationsOnlyOpenThePage(t *testing.T) {
	got := make(chan received, 10)
	srv := webhookServer(t, func(r received) { got <- r })
	b := permission.NewBoard()
	key := answertoken.New()
	d, err := desk.Listen("127.0.0.1:0", b, desk.Options{Taps: key})
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	public := strings.TrimSuffix(strings.Split(d.URL(), "?")[0], "/")
	start(t, b, Options{URL: srv.URL + "/topic", DeskURL: d.URL(), PublicURL: public, Taps: key})

	tk := openApproval(b)
	r := recv(t, got)
	assert.Equal(t, "approval.asked", r.header.Get("X-Askbridge-Event"))
	acts := actionsOf(t, r)
	require.Len(t, acts, 1, "one button")
	assert.Equal(t, ntfyAction{Action: "view", Label: "Open to approve", URL: public + "/"}, acts[0])
	assert.Equal(t, public+"/", r.header.Get("Click"))
	assert.Contains(t, r.body, "Approve or deny on the page: "+public+"/")
	for what, s := range map[string]string{"body": r.body, "Click": r.header.Get("Click"), "Actions": r.header.Get("Actions")} {
		assert.NotContains(t, s, "token", what)
	}

	code, _ := tapped(t, ntfyAction{Method: "POST", URL: public + desk.TapPath + key.Mint(tk.ID, 0)})
	assert.Equal(t, http.StatusConflict, code, "a tap never approves")
	p, _ := b.Get(tk.ID)
	assert.Equal(t, permission.StatePending, p.State)

	ask(b, "s", question("Which database?", "Database", "Postgres", "SQLite"))
	acts = actionsOf(t, recv(t, got))
	require.Len(t, acts, 3)
	assert.Equal(t, "http", acts[0].Action, "a question keeps its buttons")
	assert.True(t, strings.HasPrefix(acts[0].URL, public+desk.TapPath))
}

// No notifier hands on the page's credential: the hook's JSON and
// environment, the JSON webhook's body and the desktop text carry the
// page's address alone.
func TestNotificationsCarryNoCredential(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hook is an sh command line")
	}
	dir := t.TempDir()
	t.Setenv("OUT", dir)
	gotJSON := make(chan received, 10)
	srvJSON := webhookServer(t, func(r received) { gotJSON <- r })
	b := permission.NewBoard()
	hook := `env > "$OUT/env.tmp"; mv "$OUT/env.tmp" "$OUT/$ASKBRIDGE_EVENT.env"; cat > "$OUT/$ASKBRIDGE_EVENT.json.tmp"; mv "$OUT/$ASKBRIDGE_EVENT.json.tmp" "$OUT/$ASKBRIDGE_EVENT.json"`
	start(t, b, Options{Hook: hook, URL: srvJSON.URL + "/hook#json", DeskURL: "http://user:pw@127.0.0.1:7777/?token=secret#token=secret"})
	openApproval(b)
	doc := waitFile(t, filepath.Join(dir, "approval.asked.json"), 3*time.Second)
	env, err := os.ReadFile(filepath.Join(dir, "approval.asked.env"))
	require.NoError(t, err)
	body := recv(t, gotJSON).body
	for what, s := range map[string]string{"hook JSON": string(doc), "hook env": string(env), "JSON webhook": body} {
		assert.NotContains(t, s, "secret", what)
		assert.NotContains(t, s, "pw@", what)
	}
	assert.Contains(t, string(env), "ASKBRIDGE_DESK_URL="+deskPage)
	assert.Contains(t, body, `"deskUrl":"`+deskPage+`"`)
}
