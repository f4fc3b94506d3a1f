package prestart

import (
	"testing"

	"github.com/askbridge/askbridge/testkit/testenv"
	"github.com/stretchr/testify/assert"
)

func TestWantedOnlyForTheRelayWithAnAgentToContain(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"--", "claude-agent-acp"}, true},
		{[]string{"--desk", "on", "--", "codex-acp"}, true},
		{[]string{"--contain", "on", "--", "agent"}, true},
		{[]string{"-contain=auto", "--", "agent"}, true},
		{[]string{"--contain", "off", "--", "agent"}, false},
		{[]string{"--contain=off", "--", "agent"}, false},
		{[]string{"-contain", "off", "--", "agent"}, false},
		{[]string{"--desk", "on", "--"}, false},
		{[]string{"--version"}, false},
		{[]string{"ask", "--", "question"}, false},
		{[]string{"hub"}, false},
		{[]string{"__contain-init", "-await"}, false},
		{[]string{"-test.run", "X"}, false},
		{nil, false},
	} {
		assert.Equal(t, c.want, Wanted(c.args), "%q", c.args)
	}
}

func TestSplitReadsTheCommandLine(t *testing.T) {
	assert.Equal(t, []string{"askbridge", "--", "a b", ""}, split([]byte("askbridge\x00--\x00a b\x00\x00")))
	assert.Equal(t, []string{"x"}, split([]byte("x")))
	assert.Nil(t, split(nil))
}

// Go initializes this package right after syscall only while it imports
// nothing else (doc.go): one more import and the init starts late again.
func TestPrestartImportsOnlySyscallAndCtty(t *testing.T) {
	for _, imp := range testenv.Imports(t, ".") {
		if imp.Path != "syscall" && imp.Path != "github.com/askbridge/askbridge/internal/ctty" {
			t.Errorf("%s imports %s", imp.File, imp.Path)
		}
	}
}
