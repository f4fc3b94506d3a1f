package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// helpFlags runs `askbridge help SUB` in process and returns the flags its
// listing names, as written there (--name).
func helpFlags(t *testing.T, sub string) []string {
	t.Helper()
	var out, errOut bytes.Buffer
	args := []string{"help"}
	if sub != "" {
		args = append(args, sub)
	}
	require.Equal(t, 0, run(args, strings.NewReader(""), &out, &errOut), errOut.String())
	var flags []string
	for _, m := range regexp.MustCompile(`(?m)^  (-+[a-z][a-z0-9-]*)`).FindAllStringSubmatch(out.String(), -1) {
		flags = append(flags, m[1])
	}
	return flags
}

// docsFlags reads docs/flags.md: per section (## askbridge SUB), the flags in
// the first column of its tables.
func docsFlags(t *testing.T) map[string][]string {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "..", "docs", "flags.md"))
	require.NoError(t, err)
	sections := map[string][]string{}
	section, in := "", false
	flagRE := regexp.MustCompile("`(--[a-z][a-z0-9-]*)")
	for _, line := range strings.Split(string(text), "\n") {
		if name, ok := strings.CutPrefix(line, "## "); ok {
			section, in = "", false
			if rest, ok := strings.CutPrefix(name, "askbridge"); ok {
				in = true
				section = strings.TrimSpace(strings.SplitN(rest, "(", 2)[0])
				sections[section] = nil
			}
			continue
		}
		cells := strings.Split(line, "|")
		if !in || len(cells) < 3 || !strings.HasPrefix(line, "|") {
			continue
		}
		for _, m := range flagRE.FindAllStringSubmatch(cells[1], -1) {
			sections[section] = append(sections[section], m[1])
		}
	}
	return sections
}

// Every flag a subcommand's help lists is in docs/flags.md under that
// subcommand, and every flag documented there is one its help lists.
func TestDocsFlagsMatchHelp(t *testing.T) {
	t.Parallel()
	docs := docsFlags(t)
	require.Contains(t, docs, "", "docs/flags.md has a section for the relay (## askbridge (the relay))")
	for _, sub := range append([]string{""}, visibleSubcommands()...) {
		name := strings.TrimSpace("askbridge " + sub)
		help := helpFlags(t, sub)
		for _, f := range help {
			assert.True(t, strings.HasPrefix(f, "--"), "%s -h writes %s with one dash", name, f)
		}
		documented := docs[sub]
		for _, f := range help {
			assert.Contains(t, documented, f, "%s -h lists %s; docs/flags.md's section ## %s does not", name, f, name)
		}
		for _, f := range documented {
			assert.Contains(t, help, f, "docs/flags.md documents %s under ## %s; %s -h does not list it", f, name, name)
		}
	}
	for sub := range docs {
		assert.True(t, sub == "" || slices.Contains(visibleSubcommands(), sub), "docs/flags.md has a section for %q, which is no subcommand", sub)
	}
}
