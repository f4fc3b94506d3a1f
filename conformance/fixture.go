package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/txtar"
)

// Section names of a fixture.
const (
	SecClient     = "client"
	SecAgent      = "agent"
	SecDesk       = "desk"
	SecWantClient = "want-client"
	SecWantAgent  = "want-agent"
)

// Fixture is one recorded exchange.
type Fixture struct {
	Name    string
	Comment string
	Flags   []string // askbridge flags, from the comment's "flags:" line
	// Command is the agent's command line, from the comment's "command:"
	// line: which agent's own advertisements askbridge sends
	// (dialect.Targeted). None: a command naming no known agent.
	Command    []string
	Client     [][]byte   // what the client sends
	Agent      [][]byte   // what the agent sends
	Desk       []DeskLine // what was answered at the answer desk
	WantClient [][]byte   // what askbridge must send the client
	WantAgent  [][]byte   // what askbridge must send the agent
}

// Load reads a fixture file.
func Load(path string) (*Fixture, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse reads a fixture; unknown or duplicate sections and lines that are
// not JSON are errors naming the file and section.
func Parse(name string, data []byte) (*Fixture, error) {
	ar := txtar.Parse(data)
	f := &Fixture{Name: name, Comment: string(ar.Comment)}
	for _, line := range strings.Split(f.Comment, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "flags:"); ok {
			f.Flags = append(f.Flags, strings.Fields(rest)...)
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "command:"); ok {
			f.Command = append(f.Command, strings.Fields(rest)...)
		}
	}
	seen := map[string]bool{}
	for _, file := range ar.Files {
		if seen[file.Name] {
			return nil, fmt.Errorf("%s: duplicate section %q", name, file.Name)
		}
		seen[file.Name] = true
		lines, err := jsonLines(file.Data)
		if err != nil {
			return nil, fmt.Errorf("%s: section %s: %v", name, file.Name, err)
		}
		switch file.Name {
		case SecClient:
			f.Client = lines
		case SecAgent:
			f.Agent = lines
		case SecDesk:
			if f.Desk, err = deskLines(lines); err != nil {
				return nil, fmt.Errorf("%s: section %s: %v", name, file.Name, err)
			}
		case SecWantClient:
			f.WantClient = lines
		case SecWantAgent:
			f.WantAgent = lines
		default:
			return nil, fmt.Errorf("%s: unknown section %q (want client, agent, desk, want-client, want-agent)", name, file.Name)
		}
	}
	for _, s := range []string{SecClient, SecAgent} {
		if !seen[s] {
			return nil, fmt.Errorf("%s: no %s section", name, s)
		}
	}
	for i, d := range f.Desk {
		if d.After > len(f.Client) {
			return nil, fmt.Errorf("%s: section %s: line %d: after %d, but the client section has %d lines", name, SecDesk, i+1, d.After, len(f.Client))
		}
	}
	return f, nil
}

func jsonLines(data []byte) ([][]byte, error) {
	var out [][]byte
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if !json.Valid(line) {
			return nil, fmt.Errorf("line %d is not JSON: %.80s", i+1, line)
		}
		out = append(out, line)
	}
	return out, nil
}

// Format writes the fixture back as txtar.
func (f *Fixture) Format() []byte {
	ar := &txtar.Archive{Comment: []byte(f.Comment)}
	add := func(name string, lines [][]byte) {
		var b bytes.Buffer
		for _, l := range lines {
			b.Write(l)
			b.WriteByte('\n')
		}
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: b.Bytes()})
	}
	add(SecClient, f.Client)
	add(SecAgent, f.Agent)
	if len(f.Desk) > 0 {
		var lines [][]byte
		for _, d := range f.Desk {
			b, _ := json.Marshal(d)
			lines = append(lines, b)
		}
		add(SecDesk, lines)
	}
	add(SecWantClient, f.WantClient)
	add(SecWantAgent, f.WantAgent)
	return txtar.Format(ar)
}
