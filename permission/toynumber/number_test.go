package toynumber_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/permission/toynumber"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/prompt"
)

func question() permission.Question {
	return permission.Question{Question: "How many replicas?", Header: "Replicas",
		Options: []permission.Option{{Label: "As before"}}, Kind: toynumber.Number}
}

// editor is a client as a struct of funcs: it answers each permission
// request with the next of its responses, and keeps what it was asked.
type editor struct {
	mu        sync.Mutex
	asked     []string
	responses []string
}

func (e *editor) RequestPermission(_ context.Context, params []byte) ([]byte, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, string(params))
	resp := e.responses[0]
	e.responses = e.responses[1:]
	return []byte(resp), nil
}

func (e *editor) Notify(context.Context, string, any) error { return nil }

func typed(text string) string {
	return `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"` + text + `"}}}`
}

// The editor's permission request: Other takes the number, and text that
// is none is asked again, saying so.
func TestTheEditorIsAskedANumberUntilItIsOne(t *testing.T) {
	ed := &editor{responses: []string{typed("twelve"), typed("12")}}
	res, err := permission.Ask(t.Context(), ed, permission.Request{SessionID: "s", Questions: []permission.Question{question()}, Round: 1})
	require.NoError(t, err)
	assert.Equal(t, permission.Answer{Other: true, Custom: "12"}, res.Answers[0].Answer)
	require.Len(t, ed.asked, 2)
	assert.Contains(t, ed.asked[0], `"kind":"number","input":"number","hint":"a number"`)
	assert.Contains(t, ed.asked[1], `\"twelve\" is not a number (try 12 or 0.5): answer again.`)
}

// The terminal prompter (askbridge ask, the inbox) reads the kind from the
// request, says what to type, and asks again until it is a number.
func TestTheTerminalTakesOnlyANumber(t *testing.T) {
	params := permission.Render(permission.Prompt{SessionID: "s", ToolCallID: "c", Q: question(), Total: 1, Round: 1})
	var out bytes.Buffer
	resp, err := prompt.Answer(t.Context(), prompt.NewPlain(strings.NewReader("0\ntwelve\n0\n12\n"), &out), params)
	require.NoError(t, err)
	assert.Contains(t, string(resp), `"customText":"12"`)
	assert.Contains(t, out.String(), "Your answer (a number): twelve")
	assert.Contains(t, out.String(), `Invalid answer: "twelve" is not a number (try 12 or 0.5). Try again.`)
}

// The desk's and the hub's page: the question's JSON says what its field
// is, and the desk refuses typed text that is no number.
func TestThePageShowsANumberFieldAndTheDeskTakesOnlyANumber(t *testing.T) {
	board := permission.NewBoard()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := desk.New(ln, board, desk.Options{})
	t.Cleanup(func() { srv.Close() })
	api := srv.LocalHandler()
	call := func(method, path, body string) (int, string) {
		req := httptest.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		api.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	ticket := board.Open(permission.Request{SessionID: "s", Questions: []permission.Question{question()}, Round: 1})

	code, list := call("GET", "/question", "")
	require.Equal(t, http.StatusOK, code, list)
	assert.Contains(t, list, `"kind":"number","input":"number","hint":"a number"`)
	code, body := call("POST", "/question/"+ticket.ID+"/reply", `{"answers":[["twelve"]],"step":0}`)
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Contains(t, body, `is not a number`)
	code, body = call("POST", "/question/"+ticket.ID+"/reply", `{"answers":[["12"]],"step":0}`)
	require.Equal(t, http.StatusOK, code, body)
	<-ticket.Done()
	assert.Equal(t, permission.Answer{Other: true, Custom: "12"}, ticket.Result().Answers[0].Answer)
}

// The board's sets travel as JSON (the hub's link, its history): the kind
// goes by its name and comes back whole.
func TestTheKindTravelsByItsName(t *testing.T) {
	b, err := json.Marshal(question())
	require.NoError(t, err)
	assert.Contains(t, string(b), `"multiSelect":false,"kind":"number"`)
	var back permission.Question
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, question(), back)
}

// The recipe's count: the kind is its folder, and nothing else in
// askbridge names it (the renderers show it by its properties), but the
// recipe that tells of it.
func TestNothingElseNamesTheKind(t *testing.T) {
	wd, err := os.Getwd()
	require.NoError(t, err)
	root := filepath.Dir(filepath.Dir(wd))
	var named []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || rel == filepath.Join("permission", "toynumber") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".js" && ext != ".md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte("toynumber")) {
			named = append(named, filepath.ToSlash(rel))
		}
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, []string{"docs/development.md"}, named)
}
