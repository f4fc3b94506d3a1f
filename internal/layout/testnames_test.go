package layout

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	// citedTest is a test named in a doc: `TestX` or `TestX/its_subtest`.
	citedTest = regexp.MustCompile("`(Test[A-Za-z0-9_]+)(/[^`]+)?`")
	testFunc  = regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9_]+)\(`)
	subtest   = regexp.MustCompile(`t\.Run\("([^"]+)"`)
)

// Every test a doc names exists: a claim that cites a test is only as true
// as that test, and a renamed or removed one would leave the claim
// standing on nothing. docs/security.md names one for every cell of its
// tables, or says "not tested".
func TestDocsCiteTestsThatExist(t *testing.T) {
	root := moduleRoot(t)
	funcs, subs := testNames(t, root)
	if len(funcs) < 100 {
		t.Fatalf("found only %d test functions under %s: the walk is wrong", len(funcs), root)
	}
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	cited := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, doc)
		for _, m := range citedTest.FindAllStringSubmatch(string(b), -1) {
			cited++
			if !funcs[m[1]] {
				t.Errorf("%s names %s, which no _test.go file defines", rel, m[1])
				continue
			}
			if m[2] != "" && !subs[m[1]+m[2]] {
				t.Errorf("%s names %s%s: %s runs no such subtest", rel, m[1], m[2], m[1])
			}
		}
	}
	if cited < 50 {
		t.Fatalf("the docs name only %d tests: the pattern is wrong", cited)
	}
}

// testNames are the module's test functions, and its subtests as go test
// names them (TestX/spaces_as_underscores), by the t.Run calls in the
// file that defines TestX (its helpers' included).
func testNames(t *testing.T, root string) (funcs, subs map[string]bool) {
	funcs, subs = map[string]bool{}, map[string]bool{}
	for _, rel := range goFiles(t, root) {
		if !strings.HasSuffix(rel, "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		runs := subtest.FindAllStringSubmatch(string(b), -1)
		for _, f := range testFunc.FindAllStringSubmatch(string(b), -1) {
			funcs[f[1]] = true
			for _, r := range runs {
				subs[f[1]+"/"+strings.ReplaceAll(r[1], " ", "_")] = true
			}
		}
	}
	return funcs, subs
}

// The tables of docs/security.md's "Who can do what" name, in each row's
// last cell, the tests that hold the row, or say that none does.
func TestSecurityTablesNameTheirTests(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "security.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, section := 0, ""
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "## ") {
			section = line
		}
		if section != "## Who can do what" || !strings.HasPrefix(line, "| ") || strings.HasSuffix(line, "| tests |") {
			continue
		}
		rows++
		cells := strings.Split(line, " | ")
		if last := cells[len(cells)-1]; !citedTest.MatchString(last) && !strings.Contains(last, "not tested") {
			t.Errorf("docs/security.md:%d: the row names no test and does not say \"not tested\": %s", i+1, line)
		}
	}
	if rows < 20 {
		t.Fatalf("found only %d rows in docs/security.md's tables: the parsing is wrong", rows)
	}
}
