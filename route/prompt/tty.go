package prompt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"golang.org/x/term"
)

// TTY asks on a terminal with huh's select, multi-select and input, which
// wrap to the terminal's width and redraw when it is resized. Arrows (or
// k/j) move, Space (or x) toggles a row of a multi-select, Enter submits;
// picking "Other" opens a text input (Esc there goes back to the options).
// Esc or Ctrl-C on the options cancels. Once settled, the question stays on
// the screen with its answer, or "cancelled", under it.
type TTY struct {
	f     *os.File
	style ttyStyles
	skip  bool // Esc skips (SkipOnEsc)
}

// NewTTY returns a prompter on the terminal f (usually /dev/tty or stdin).
//
// Styles are rendered for f, not for stdout: `askbridge ask` prints its
// result on stdout, which is seldom the terminal. That makes f lipgloss's
// default renderer, which huh's themes use, for the whole process.
func NewTTY(f *os.File) *TTY {
	r := lipgloss.NewRenderer(f)
	// No colour here adapts to the background, and asking the terminal for
	// it would read the TTY while bubbletea does: say so rather than ask.
	r.SetHasDarkBackground(true)
	lipgloss.SetDefaultRenderer(r)
	return &TTY{f: f, style: newTTYStyles(r)}
}

// IsTerminal reports whether f is a terminal.
func IsTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// Prompt implements Prompter.
func (t *TTY) Prompt(ctx context.Context, r Request) (Reply, error) {
	r = asDenial(r)
	var picks []string
	for {
		var end ending
		picks, end = t.choose(ctx, r, picks)
		if end != submitted {
			t.settle(ctx, r, "", end)
			return Reply{}, ErrCancelled
		}
		if !slices.Contains(picks, otherID) {
			reply := Reply{IDs: picks}
			t.settle(ctx, r, t.summary(reply), submitted)
			return reply, nil
		}
		text, end := t.typeOther(ctx, r)
		switch end {
		case escaped:
			continue // back to the options, picks kept
		case submitted:
			// Other goes last, as the plain prompter and the editors send it.
			reply := Reply{IDs: append(slices.DeleteFunc(picks, func(id string) bool { return id == otherID }), otherID), Custom: text}
			t.settle(ctx, r, t.summary(reply), submitted)
			return reply, nil
		default:
			t.settle(ctx, r, "", end)
			return Reply{}, ErrCancelled
		}
	}
}

// choose shows the options: a select, or a multi-select starting from picks.
func (t *TTY) choose(ctx context.Context, r Request, picks []string) ([]string, ending) {
	var options []huh.Option[string]
	for _, c := range r.Choices {
		if c.ID != doneID { // every pick goes at once: Done is never needed
			options = append(options, huh.NewOption(c.Name, c.ID))
		}
	}
	if r.Multi {
		chosen := slices.Clone(picks)
		field := huh.NewMultiSelect[string]().Title(t.title(r)).Options(options...).Value(&chosen)
		end := t.run(ctx, field, "↑/↓ move · Space toggle · Enter submit · Esc "+t.escWord())
		if len(chosen) == 0 {
			// Enter with nothing toggled means the row under the cursor.
			if id, ok := field.Hovered(); ok {
				chosen = []string{id}
			}
		}
		return chosen, end
	}
	var chosen string
	if len(picks) > 0 {
		chosen = picks[0]
	}
	field := huh.NewSelect[string]().Title(t.title(r)).Options(options...).Value(&chosen)
	end := t.run(ctx, field, "↑/↓ move · Enter choose · Esc "+t.escWord())
	return []string{chosen}, end
}

// typeOther asks for the text of "Other".
func (t *TTY) typeOther(ctx context.Context, r Request) (string, ending) {
	var text string
	label := r.typedLabel()
	if r.Denial {
		label = "Why not: "
	}
	field := huh.NewInput().Title(t.title(r)).Prompt(label).Value(&text).
		Validate(func(s string) error {
			if strings.TrimSpace(s) == "" {
				return errors.New("type an answer, or Esc to go back")
			}
			return r.Kind.Check(strings.TrimSpace(s))
		})
	end := t.run(ctx, field, "Enter submit · Esc back to the options · Ctrl-C "+t.escWord())
	return strings.TrimSpace(text), end
}

func (t *TTY) title(r Request) string {
	return "[" + r.Title + "] " + r.heading()
}

// settle replaces the form with the question and what became of it.
func (t *TTY) settle(ctx context.Context, r Request, answer string, end ending) {
	var b strings.Builder
	b.WriteString(t.style.question.Render(t.title(r)) + "\n")
	switch end {
	case submitted:
		b.WriteString(t.style.answer.Render("✔ "+answer) + "\n")
	case withdrawn:
		b.WriteString(t.style.cancelled.Render("✘ "+withdrawnLine(ctx)) + "\n")
	default:
		if t.skip {
			b.WriteString(t.style.cancelled.Render("↷ skipped") + "\n")
		} else {
			b.WriteString(t.style.cancelled.Render("✘ cancelled") + "\n")
		}
	}
	// Raw mode is off again, so a newline is a newline.
	fmt.Fprint(t.f, b.String())
}

// summary is the answer as the user sees it: the labels picked, the text
// typed for Other.
func (t *TTY) summary(reply Reply) string {
	var parts []string
	for _, id := range reply.IDs {
		if id != otherID {
			parts = append(parts, id)
		}
	}
	if reply.Custom != "" {
		parts = append(parts, fmt.Sprintf("%q (typed)", reply.Custom))
	}
	return strings.Join(parts, ", ")
}

// ending is how a form ended.
type ending int

const (
	submitted ending = iota
	escaped          // Esc: cancel on the options, back from the text input
	aborted          // Ctrl-C, or the terminal went away
	withdrawn        // ctx ended: settled elsewhere
)

// run shows one field until it is submitted or left.
func (t *TTY) run(ctx context.Context, field huh.Field, help string) ending {
	keys := huh.NewDefaultKeyMap()
	// "/" would open a filter whose own Esc handling fights ours.
	keys.Select.Filter.SetEnabled(false)
	keys.MultiSelect.Filter.SetEnabled(false)
	form := huh.NewForm(huh.NewGroup(field)).WithTheme(huh.ThemeBase16()).WithKeyMap(keys).WithShowHelp(false)
	form.SubmitCmd, form.CancelCmd = tea.Quit, tea.Quit
	m := &formModel{form: form, help: help, helpStyle: t.style.help}
	p := tea.NewProgram(m, tea.WithInput(t.f), tea.WithOutput(t.f), tea.WithoutSignalHandler())
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ctx.Done():
			p.Send(withdrawMsg{})
		case <-stop:
		}
	}()
	if _, err := p.Run(); err != nil {
		return aborted
	}
	switch {
	case m.withdrawn:
		return withdrawn
	case m.escaped:
		return escaped
	case form.State == huh.StateCompleted:
		return submitted
	}
	return aborted
}

type withdrawMsg struct{}

// formModel runs a huh form, adding what huh has no key for: Esc, and the
// question being withdrawn while shown.
type formModel struct {
	form      *huh.Form
	help      string
	helpStyle lipgloss.Style
	width     int // the terminal's, as last told
	escaped   bool
	withdrawn bool
}

func (m *formModel) Init() tea.Cmd { return m.form.Init() }

func (m *formModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case withdrawMsg:
		m.withdrawn = true
		return m, tea.Quit
	case tea.KeyMsg:
		if key.Matches(msg, escKey) {
			m.escaped = true
			return m, tea.Quit
		}
	case tea.WindowSizeMsg:
		narrower := m.width > 0 && msg.Width < m.width
		m.width = msg.Width
		if narrower {
			// A terminal that reflows its lines when it narrows (tmux, VTE,
			// kitty, iTerm2...) leaves the drawing taller than the renderer
			// knows, so a redraw in place would leave pieces of the old one
			// above. Redraw on a cleared screen instead; what was on it
			// stays in the scrollback of terminals that keep it there.
			_, cmd := m.form.Update(msg)
			return m, tea.Batch(cmd, tea.ClearScreen)
		}
	}
	_, cmd := m.form.Update(msg)
	return m, cmd
}

var escKey = key.NewBinding(key.WithKeys("esc"))

// View is empty once done, so the form leaves no trace: settle prints what
// stays.
func (m *formModel) View() string {
	if m.escaped || m.withdrawn || m.form.State != huh.StateNormal {
		return ""
	}
	if m.width == 0 {
		// Until bubbletea knows the terminal's width its renderer cannot
		// place lines reliably (a frame drawn then can leave the screen a
		// key behind the form); keys that come meanwhile still count.
		return ""
	}
	help := m.helpStyle
	if m.width > 0 {
		help = help.Width(m.width)
	}
	return trimLines(m.form.View()) + "\n" + help.Render(m.help)
}

// trimLines drops the spaces huh pads each line with up to the terminal's
// width. A padded line fills the row, so a terminal that reflows when
// narrowed would wrap every one of them; unpadded, only lines really wider
// than the new width move.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

type ttyStyles struct {
	question, answer, cancelled, help lipgloss.Style
}

// newTTYStyles uses the terminal's own 16 colours, right on light and dark
// backgrounds alike.
func newTTYStyles(r *lipgloss.Renderer) ttyStyles {
	return ttyStyles{
		question:  r.NewStyle().Bold(true),
		answer:    r.NewStyle().Foreground(lipgloss.Color("2")),
		cancelled: r.NewStyle().Foreground(lipgloss.Color("1")),
		help:      r.NewStyle().Foreground(lipgloss.Color("8")),
	}
}
