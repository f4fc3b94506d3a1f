package prompt

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// An approval whose question carries DenyMark (the inbox's) shows its
// Other row as Deny…, without the mark; what is typed there goes back as
// Other's text, which the inbox sends as the denial's reason.
func TestAnApprovalsOtherIsDeny(t *testing.T) {
	approval := strings.ReplaceAll(single, "Which database?", "rm -rf build"+DenyMark)
	resp, shown := answer(t, "0\nmove it to archive/\n", approval)
	assert.Contains(t, shown, "  0. "+DenyName+"\n")
	assert.NotContains(t, shown, DenyMark)
	assert.Contains(t, shown, "rm -rf build\n")
	assert.JSONEq(t, `{"outcome":{"outcome":"selected","optionId":"__other__","_meta":{"customText":"move it to archive/"}}}`, resp)

	_, shown = answer(t, "1\n", single)
	assert.Contains(t, shown, "Other (type custom answer)", "a question's Other stays Other")
}
