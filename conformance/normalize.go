package conformance

import (
	"bytes"
	"encoding/json"
	"strings"
)

// generatedID matches the tool call ids askbridge makes up: the only part of
// its output that differs from run to run.
var generatedID = lazyRegexp(`askbridge-[0-9a-f]{16}`)

// ownID matches the ids of askbridge's own requests, "askbridge-<random>-N",
// random per run; fixtures spell them "askbridge-N", and fixtureID matches
// that spelling.
var (
	ownID     = lazyRegexp(`"askbridge-([0-9a-f]{16})-([0-9]+)"`)
	fixtureID = lazyRegexp(`"askbridge-([0-9]+)"`)
)

// ownIDs translates askbridge's request ids between a run and a fixture.
type ownIDs struct{ random string }

// fromWire spells the ids of a line received as the fixture does, and
// learns the run's random part.
func (o *ownIDs) fromWire(line []byte) []byte {
	if m := ownID().FindSubmatch(line); m != nil {
		o.random = string(m[1])
	}
	return ownID().ReplaceAll(line, []byte(`"askbridge-$2"`))
}

// toWire spells the ids of a line to send as the run does.
func (o *ownIDs) toWire(line []byte) []byte {
	if o.random == "" {
		return line
	}
	return fixtureID().ReplaceAll(line, []byte(`"askbridge-`+o.random+`-$1"`))
}

// Normalize makes a line comparable: generated ids (and MCP tags) replaced,
// the paths of the MCP server askbridge lists made MCPCommand and MCPSocket,
// JSON indented with sorted keys. Nothing else is changed.
func Normalize(line []byte) string {
	line = generatedID().ReplaceAll(withMCPPaths(line), []byte("askbridge-ID"))
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		return string(line)
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// Diff compares want and got line by line, as indented JSON, and returns a
// readable difference, or "" when they match.
func Diff(want, got [][]byte) string {
	w := normalizeAll(want)
	g := normalizeAll(got)
	if strings.Join(w, "\n") == strings.Join(g, "\n") {
		return ""
	}
	return lineDiff(strings.Split(strings.Join(w, "\n"), "\n"), strings.Split(strings.Join(g, "\n"), "\n"))
}

func normalizeAll(lines [][]byte) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = Normalize(l)
	}
	return out
}

// lineDiff is a small LCS diff: "-" lines only wanted, "+" lines only got.
func lineDiff(a, b []string) string {
	n, m := len(a), len(b)
	if n*m > 4_000_000 {
		return firstDifference(a, b)
	}
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		mark byte
		text string
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, op{' ', a[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', a[i]})
			i++
		default:
			ops = append(ops, op{'+', b[j]})
			j++
		}
	}
	// Show the changed lines with three lines of context around each.
	const context = 3
	var out bytes.Buffer
	last := -1
	for k, o := range ops {
		if o.mark == ' ' {
			continue
		}
		from := max(k-context, last+1)
		if last >= 0 && from > last+1 {
			out.WriteString("  …\n")
		}
		for c := from; c < k; c++ {
			out.WriteString("  " + ops[c].text + "\n")
		}
		out.WriteString(string(o.mark) + " " + o.text + "\n")
		last = k
		for c := k + 1; c < len(ops) && c <= k+context && ops[c].mark == ' '; c++ {
			out.WriteString("  " + ops[c].text + "\n")
			last = c
		}
	}
	return out.String()
}

// firstDifference shows where two long texts part, with some context.
func firstDifference(a, b []string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	var out bytes.Buffer
	for k := max(0, i-3); k < i; k++ {
		out.WriteString("  " + a[k] + "\n")
	}
	for k := i; k < min(len(a), i+10); k++ {
		out.WriteString("- " + a[k] + "\n")
	}
	for k := i; k < min(len(b), i+10); k++ {
		out.WriteString("+ " + b[k] + "\n")
	}
	return out.String()
}
