package prompt

import (
	"context"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// TTY asks interactively on a terminal: arrows (or k/j) move, a number
// jumps to that row, space toggles a row of a multi-select, Enter submits
// (on the Other row it opens a text input), Esc or Ctrl-C cancels.
type TTY struct {
	f       *os.File
	pending []string // keys read but not handled yet
}

// NewTTY returns a prompter on the terminal f (usually /dev/tty).
func NewTTY(f *os.File) *TTY { return &TTY{f: f} }

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Prompt implements Prompter.
func (t *TTY) Prompt(ctx context.Context, r Request) (Reply, error) {
	state, err := term.MakeRaw(int(t.f.Fd()))
	if err != nil {
		return Reply{}, fmt.Errorf("terminal: %v", err)
	}
	defer term.Restore(int(t.f.Fd()), state)
	s := &ttyState{r: r, checked: map[int]bool{}}
	drawn := 0
	for {
		if ctx.Err() != nil {
			return Reply{}, ErrCancelled
		}
		drawn = t.draw(s, drawn)
		key, err := t.key()
		if err != nil {
			return Reply{}, ErrCancelled
		}
		done, reply, err := s.handle(key)
		if err != nil {
			t.finish(drawn, "cancelled")
			return Reply{}, err
		}
		if done {
			t.finish(drawn, s.summary(reply))
			return reply, nil
		}
	}
}

type ttyState struct {
	r       Request
	cursor  int
	checked map[int]bool
	editing bool   // typing the Other text
	text    []rune // the Other text so far
	notice  string
}

func (s *ttyState) isOther(i int) bool { return s.r.Choices[i].ID == otherID }

// handle applies one key; done with a reply ends the prompt.
func (s *ttyState) handle(key string) (bool, Reply, error) {
	s.notice = ""
	if s.editing {
		switch key {
		case "esc":
			s.editing = false
		case "enter":
			text := strings.TrimSpace(string(s.text))
			if text == "" {
				s.notice = "type an answer, or Esc to go back"
				return false, Reply{}, nil
			}
			reply := s.picked()
			reply.IDs = append(reply.IDs, otherID)
			reply.Custom = text
			return true, reply, nil
		case "backspace":
			if len(s.text) > 0 {
				s.text = s.text[:len(s.text)-1]
			}
		case "space":
			s.text = append(s.text, ' ')
		default:
			// Typed or pasted text; control keys have names and are ignored.
			if utf8.ValidString(key) && !strings.ContainsFunc(key, func(r rune) bool { return r < ' ' }) && key != "unknown" {
				s.text = append(s.text, []rune(key)...)
			}
		}
		return false, Reply{}, nil
	}
	switch key {
	case "esc", "ctrl-c":
		return false, Reply{}, ErrCancelled
	case "up", "k":
		s.cursor = (s.cursor + len(s.r.Choices) - 1) % len(s.r.Choices)
	case "down", "j":
		s.cursor = (s.cursor + 1) % len(s.r.Choices)
	case "space":
		if s.r.Multi && !s.isOther(s.cursor) {
			s.checked[s.cursor] = !s.checked[s.cursor]
		}
	case "enter":
		if s.isOther(s.cursor) {
			s.editing = true
			return false, Reply{}, nil
		}
		if s.r.Multi {
			reply := s.picked()
			if len(reply.IDs) == 0 {
				reply.IDs = []string{s.r.Choices[s.cursor].ID}
			}
			return true, reply, nil
		}
		return true, Reply{IDs: []string{s.r.Choices[s.cursor].ID}}, nil
	default:
		if len(key) == 1 && key[0] >= '1' && key[0] <= '9' {
			if n := int(key[0] - '1'); n < len(s.r.Choices) {
				s.cursor = n
			}
		}
	}
	return false, Reply{}, nil
}

func (s *ttyState) picked() Reply {
	var r Reply
	for i, c := range s.r.Choices {
		if s.checked[i] && c.ID != otherID && c.ID != doneID {
			r.IDs = append(r.IDs, c.ID)
		}
	}
	return r
}

func (s *ttyState) summary(r Reply) string {
	var names []string
	for _, id := range r.IDs {
		for _, c := range s.r.Choices {
			if c.ID == id && id != otherID {
				names = append(names, c.Name)
			}
		}
	}
	if r.Custom != "" {
		names = append(names, fmt.Sprintf("%q", r.Custom))
	}
	return strings.Join(names, ", ")
}

// draw writes the prompt, replacing the previous drawing of drawn lines.
func (t *TTY) draw(s *ttyState, drawn int) int {
	var b strings.Builder
	if drawn > 0 {
		fmt.Fprintf(&b, "\r\x1b[%dA\x1b[J", drawn)
	}
	lines := []string{fmt.Sprintf("\x1b[1m[%s]\x1b[0m %s", s.r.Title, s.r.heading())}
	for i, c := range s.r.Choices {
		pointer := "  "
		if i == s.cursor {
			pointer = "\x1b[36m❯\x1b[0m "
		}
		box := ""
		if s.r.Multi && !s.isOther(i) {
			box = "[ ] "
			if s.checked[i] {
				box = "[x] "
			}
		}
		lines = append(lines, fmt.Sprintf("%s%d. %s%s", pointer, i+1, box, c.Name))
	}
	if s.editing {
		lines = append(lines, "  Your answer: "+string(s.text)+"▏")
	}
	help := "↑/↓ or number to move · Enter to choose · Esc to cancel"
	if s.r.Multi {
		help = "↑/↓ or number to move · Space to toggle · Enter to submit · Esc to cancel"
	}
	if s.editing {
		help = "type your answer · Enter to submit · Esc to go back"
	}
	if s.notice != "" {
		help = s.notice
	}
	lines = append(lines, "\x1b[2m"+help+"\x1b[0m")
	b.WriteString(strings.Join(lines, "\r\n"))
	b.WriteString("\r\n")
	t.f.WriteString(b.String())
	return len(lines)
}

// finish replaces the prompt with one line saying what was chosen.
func (t *TTY) finish(drawn int, what string) {
	t.f.WriteString(fmt.Sprintf("\r\x1b[%dA\x1b[J", drawn))
	t.f.WriteString(fmt.Sprintf("✔ %s\r\n", what))
}

// key returns the next key press. A read may hold several (typed ahead, or
// pasted): they are split and queued.
func (t *TTY) key() (string, error) {
	for len(t.pending) == 0 {
		buf := make([]byte, 256)
		n, err := t.f.Read(buf)
		if err != nil {
			return "", err
		}
		t.pending = splitKeys(buf[:n])
	}
	k := t.pending[0]
	t.pending = t.pending[1:]
	return k, nil
}

// splitKeys names the keys in b: arrows, Esc, Enter, Space, Backspace,
// Ctrl-C, and every other character as itself.
func splitKeys(b []byte) []string {
	var keys []string
	for len(b) > 0 {
		switch {
		case len(b) >= 3 && b[0] == 0x1b && (b[1] == '[' || b[1] == 'O'):
			switch b[2] {
			case 'A':
				keys = append(keys, "up")
			case 'B':
				keys = append(keys, "down")
			default:
				keys = append(keys, "unknown")
			}
			b = b[3:]
			continue
		case b[0] == 0x1b:
			keys = append(keys, "esc")
		case b[0] == '\r' || b[0] == '\n':
			keys = append(keys, "enter")
		case b[0] == ' ':
			keys = append(keys, "space")
		case b[0] == 0x7f || b[0] == '\b':
			keys = append(keys, "backspace")
		case b[0] == 0x03:
			keys = append(keys, "ctrl-c")
		case b[0] < ' ':
			keys = append(keys, "unknown")
		default:
			r, size := utf8.DecodeRune(b)
			keys = append(keys, string(r))
			b = b[size:]
			continue
		}
		b = b[1:]
	}
	return keys
}
