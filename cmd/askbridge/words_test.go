package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/askbridge/askbridge/permission"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The words a person reads for routes, states and folders are the same
// in the CLI's help, the docs and the page, and they are the code's: the
// routes and states are permission's tables (permission.Sources,
// permission.States), the folders what hub.SocketPath and hub.HistoryPath
// do (wordspaths_test.go). A user was told `"route":"hub"` by hub log
// where the docs said desk, and a socket fallback by askbridge help hub
// that the binary never used.
func TestTheHelpTheDocsAndThePageSayTheSameNames(t *testing.T) {
	t.Parallel()
	for name, text := range wordTexts(t) {
		for _, p := range routeProblems(text) {
			t.Errorf("%s: %s", name, p)
		}
		for _, p := range stateProblems(text) {
			t.Errorf("%s: %s", name, p)
		}
		for _, p := range folderProblems(text) {
			t.Errorf("%s: %s", name, p)
		}
	}
	for _, p := range pageProblems(t, filepath.Join("..", "..", "route", "desk", "static")) {
		t.Errorf("the page: %s", p)
	}
}

// The checks catch what they are for: the two stale sentences the user
// met, and a page that names a route or state the board never sends.
func TestTheWordsChecksCatchStaleNames(t *testing.T) {
	t.Parallel()
	assert.NotEmpty(t, routeProblems("`route` (`client` for the editor, `desk` for the hub's page and the inbox, `timeout`, …)"))
	assert.NotEmpty(t, routeProblems("`source` says where: `client` (the editor), `page` (the hub's page)"), "a route the board has not")
	assert.Empty(t, routeProblems("`source` says where: `client` (the editor), `hub` (the hub's page), `inbox` (`askbridge inbox`), `terminal` or `timeout`."))
	assert.NotEmpty(t, stateProblems("`state` is `pending`, `answered` or `canceled`"))
	assert.NotEmpty(t, stateProblems("`outcome` (answered, timeout)"), "a list of outcomes leaves none out")
	assert.NotEmpty(t, folderProblems("The askbridges find the hub on a Unix socket: $ASKBRIDGE_HUB, else\n$XDG_RUNTIME_DIR/askbridge/hub.sock, else askbridge-UID/hub.sock in the\ntemporary folder."))
	assert.NotEmpty(t, folderProblems("kept in `$XDG_STATE_HOME/askbridge/hub-history.jsonl`."), "the state folder's fallback left out")
	assert.NotEmpty(t, jsProblems(`if (r.route === "page") x(); if (d.state === "expired") y();`))
	assert.Empty(t, jsProblems(`if (r.source === "timeout" && r.state !== "timeout") x();`))
}

// wordTexts is every text a person reads the names in: docs/*.md, the
// README and every `askbridge help` output (the hub's subcommands too).
func wordTexts(t *testing.T) map[string]string {
	t.Helper()
	texts := map[string]string{}
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	for _, p := range append(docs, filepath.Join(root, "README.md")) {
		texts[filepath.Base(p)] = textOf(t, p)
	}
	help := func(name string, args ...string) {
		var out bytes.Buffer
		run(args, strings.NewReader(""), &out, &out)
		require.NotEmpty(t, out.String(), name)
		texts[name] = out.String()
	}
	help("askbridge help", "help")
	for _, sub := range visibleSubcommands() {
		help("askbridge help "+sub, "help", sub)
	}
	for _, sub := range []string{"pair", "devices", "revoke", "log", "key"} {
		require.NotNil(t, hubDeviceCommand(sub), sub)
		help("askbridge hub "+sub+" -h", "hub", sub, "-h")
	}
	return texts
}

// paragraphs splits Markdown or help text at blank lines, and a table
// into its rows; each keeps its line breaks as spaces.
func paragraphs(text string) []string {
	var out []string
	for _, p := range strings.Split(text, "\n\n") {
		if strings.HasPrefix(strings.TrimSpace(p), "|") {
			out = append(out, strings.Split(p, "\n")...)
			continue
		}
		out = append(out, strings.Join(strings.Fields(p), " "))
	}
	return out
}

var ticked = regexp.MustCompile("`([^`]+)`")

// routeProblems checks each list of routes after a mention of the
// `source` or `route` field: every name is a permission.Source, and a
// name's description carries its Noun and no other route's place ("`desk`
// for the hub's page" is the stale one).
func routeProblems(text string) []string {
	var problems []string
	for _, para := range paragraphs(text) {
		for _, at := range routeField.FindAllStringIndex(para, -1) {
			list := routeList(para[at[1]:])
			for _, m := range ticked.FindAllStringSubmatchIndex(list, -1) {
				problems = append(problems, routeProblem(list[m[2]:m[3]], described(list[m[1]:]), list)...)
			}
		}
	}
	return problems
}

var routeField = regexp.MustCompile("`(?:source|route)`")

// routeProblem checks one name of a list of routes and its description.
func routeProblem(name, desc, list string) []string {
	if !isWord(name) {
		return nil
	}
	i := slices.IndexFunc(permission.Sources, func(e permission.SourceWords) bool { return string(e.Source) == name })
	if i < 0 {
		return []string{"the route `" + name + "` is not one of permission.Sources: " + list}
	}
	desc = strings.ToLower(desc)
	if strings.Trim(strings.NewReplacer(" or ", "", " and ", "", "…", "").Replace(" "+desc+" "), " ()") == "" {
		return nil // a bare name
	}
	var problems []string
	if !strings.Contains(desc, permission.Sources[i].Noun) {
		problems = append(problems, "`"+name+"` described as "+quote(desc)+", without "+quote(permission.Sources[i].Noun))
	}
	for j, o := range permission.Sources {
		place := strings.SplitN(o.Where, " ", 2)[1] // "the hub's page"
		if j != i && strings.Contains(desc, place) {
			problems = append(problems, "`"+name+"` described as "+quote(desc)+", which is `"+string(o.Source)+"`")
		}
	}
	return problems
}

// routeList is the text after a field's mention that lists its names: the
// parenthesis right after it, else up to the clause's end.
func routeList(s string) string {
	depth := 0
	paren := strings.HasPrefix(strings.TrimLeft(s, " :"), "(")
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
			if depth < 0 || paren && depth == 0 {
				return s[:i+1]
			}
		case depth == 0 && (r == ';' || r == '.' && (i+1 == len(s) || s[i+1] == ' ')):
			return s[:i]
		}
	}
	return s
}

// described is a name's description: a parenthesis right after it, else
// the words up to the next comma, stop or name.
func described(s string) string {
	if strings.HasPrefix(s, " (") {
		if end := strings.Index(s, ")"); end > 0 {
			return s[:end+1]
		}
	}
	if end := strings.IndexAny(s, ",;.)`|"); end >= 0 {
		return s[:end]
	}
	return s
}

func isWord(s string) bool { return regexp.MustCompile(`^[a-z]+$`).MatchString(s) }

func quote(s string) string { return `"` + strings.TrimSpace(s) + `"` }

// stateList is a list of states after the field: "is a, b or c", or
// "(a, b, c)", the names ticked or not.
var stateList = regexp.MustCompile("`(?:state|outcome)`:?\\s*(?:(?:is|one of)\\s+(" + stateItem + "(?:,\\s*" + stateItem + ")*\\s+(?:or|and)\\s+" + stateItem + ")|\\((" + stateItem + "(?:,\\s*" + stateItem + ")*)\\))")

const stateItem = "`?[a-z]+`?"

// stateProblems checks each list of states after a mention of the `state`
// or `outcome` field: every name is a permission.State, and none of the
// states a set ends in is left out.
func stateProblems(text string) []string {
	var problems []string
	for _, para := range paragraphs(text) {
		for _, m := range stateList.FindAllStringSubmatch(para, -1) {
			list := m[1] + m[2]
			names := regexp.MustCompile("[a-z]+").FindAllString(strings.NewReplacer(" or ", ",", " and ", ",").Replace(list), -1)
			for _, n := range names {
				if !slices.Contains(permission.States, permission.State(n)) {
					problems = append(problems, "the state "+quote(n)+" is not one of permission.States: "+m[0])
				}
			}
			for _, s := range permission.States[1:] { // all but pending end a set
				if !slices.Contains(names, string(s)) {
					problems = append(problems, "the states "+quote(list)+" leave out "+string(s))
				}
			}
		}
	}
	return problems
}
