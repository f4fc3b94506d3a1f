package desk

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page's scripts are classic scripts sharing one global scope: a
// function declared in two of them is silently the later one's everywhere
// (decisions.js's waitedText once replaced groups.js's, and the hub's
// groups lost their wait), and a const or let twice stops the second
// script. Each top-level name is declared once across the scripts
// index.html loads.
func TestPageScriptsDeclareEachNameOnce(t *testing.T) {
	page, err := static.ReadFile("static/index.html")
	require.NoError(t, err)
	decl := regexp.MustCompile(`(?m)^(?:async\s+)?(?:function\*?|const|let|var|class)\s+([A-Za-z_$][\w$]*)`)
	where := map[string]string{}
	scripts := regexp.MustCompile(`<script src="([\w.-]+\.js)"`).FindAllStringSubmatch(string(page), -1)
	require.NotEmpty(t, scripts)
	for _, m := range scripts {
		src, err := static.ReadFile("static/" + m[1])
		require.NoError(t, err, "index.html loads %s", m[1])
		for _, d := range decl.FindAllStringSubmatch(string(src), -1) {
			if first, ok := where[d[1]]; ok {
				assert.Failf(t, "a name declared twice", "%s is declared in %s and again in %s", d[1], first, m[1])
				continue
			}
			where[d[1]] = m[1]
		}
	}
}
