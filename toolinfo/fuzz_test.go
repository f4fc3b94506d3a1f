package toolinfo

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Headers and option texts come from models: whatever they hold, the
// shown text must not panic, must stay valid UTF-8 when the input is, and a
// title must show at most HeaderMax characters of the header.
//
//	go test ./toolinfo -run '^$' -fuzz FuzzTitle -fuzztime 10s
func FuzzTitle(f *testing.F) {
	f.Add("Database", 0, 1, 1)
	f.Add("A header that is much longer than thirty", 2, 3, 2)
	f.Add("日本語のヘッダーはとても長いのでここで切られるはずです", 0, 4, 9)
	f.Add("", -1, 0, -5)
	f.Fuzz(func(t *testing.T, header string, index, total, round int) {
		title := Title(header, index, total, round)
		if utf8.ValidString(header) && !utf8.ValidString(title) {
			t.Fatalf("Title(%q) = %q is not valid UTF-8", header, title)
		}
		if shown := Shorten(header, HeaderMax); !strings.Contains(title, shown) {
			t.Fatalf("Title(%q) = %q does not show %q", header, title, shown)
		}
		if n := utf8.RuneCountInString(Shorten(header, HeaderMax)); n > HeaderMax {
			t.Fatalf("Shorten kept %d characters", n)
		}
	})
}

// FuzzContent checks that every option is shown on a line of its own after
// the question.
func FuzzContent(f *testing.F) {
	f.Add("Which database?", "Postgres", "relational", "SQLite", "")
	f.Add("", "", "", "a\nb", "c")
	f.Fuzz(func(t *testing.T, question, l1, d1, l2, d2 string) {
		opts := []Option{{l1, d1}, {l2, d2}}
		c := Content(question, opts)
		if !strings.HasPrefix(c, question) {
			t.Fatalf("Content does not start with the question: %q", c)
		}
		for _, o := range opts {
			if !strings.Contains(c, "\n  - "+o.Label) {
				t.Fatalf("Content %q misses option %q", c, o.Label)
			}
			name := OptionName(o)
			if !strings.HasPrefix(name, o.Label) {
				t.Fatalf("OptionName(%+v) = %q", o, name)
			}
		}
	})
}
