package codextest

import (
	"fmt"
	"strings"
)

// Form is elicitation/create as codex-acp 2.6.0 sends it for
// request_user_input, with id 0 as it numbers its first request, for the
// given properties and required fields.
func Form(autoResolution, props, required string) string {
	return `{"jsonrpc":"2.0","id":0,"method":"elicitation/create","params":{"sessionId":"s1","toolCallId":"call_1","mode":"form","message":"Codex needs your input to continue.",` +
		`"requestedSchema":{"type":"object","properties":{` + props + `},"required":[` + required + `]},"_meta":{"codex":{"autoResolutionMs":` + autoResolution + `}}}}`
}

// Question is the choice field and note of one question.
func Question(id, note, header, question string, secret bool, labels ...string) string {
	var opts []string
	for _, l := range labels {
		opts = append(opts, fmt.Sprintf(`{"const":%q,"title":%q,"description":"about %s"}`, l, l, l))
	}
	opts = append(opts, `{"const":"None of the above","title":"None of the above","description":"Provide a different answer in the note field."}`)
	return fmt.Sprintf(`%q:{"title":%q,"description":%q,"_meta":{"codex":{"isOther":true,"isSecret":%v}},"type":"string","oneOf":[%s]},`+
		`%q:{"type":"string","title":"Additional answer or note","_meta":{"codex":{"questionId":%q,"role":"user_note","isSecret":%v}}}`,
		id, question, header, secret, strings.Join(opts, ","), note, id, secret)
}

// DB asks one question, which database; Pass one secret question, which
// token.
var (
	DB   = Form("null", Question("db", "db_note", "Database", "Which database?", false, "Postgres", "Redis"), `"db"`)
	Pass = Form("null", Question("token", "token_note", "Token", "Which token?", true, "Staging", "Production"), `"token"`)
)
