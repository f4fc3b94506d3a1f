package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README is the front door: a newcomer reads it in one sitting. The
// rest goes into docs/, one page per topic.
func TestREADMEIsShort(t *testing.T) {
	t.Parallel()
	text, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	lines := strings.Count(string(text), "\n")
	assert.LessOrEqual(t, lines, 300, "README.md has %d lines; move detail into docs/", lines)
}

// Every relative link in the README and docs/ names a file that exists,
// and an anchor a heading of that file makes.
func TestDocsLinksResolve(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	pages = append(pages, filepath.Join(root, "README.md"))
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	for _, page := range pages {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Join(filepath.Dir(page), file)
			}
			body, err := os.ReadFile(path)
			if !assert.NoError(t, err, "%s links to %s", page, target) || anchor == "" {
				continue
			}
			assert.Contains(t, anchors(string(body)), anchor, "%s links to %s: no such heading", page, target)
		}
	}
}

// anchors are the ids GitHub gives a Markdown file's headings.
func anchors(markdown string) []string {
	var ids []string
	fenced := false
	for _, line := range strings.Split(markdown, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range heading {
			switch {
			case r == ' ' || r == '-':
				b.WriteRune('-')
			case r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
				b.WriteRune(r)
			}
		}
		ids = append(ids, b.String())
	}
	return ids
}
