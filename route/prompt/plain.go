package prompt

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// MaxTries is how many invalid answers the plain prompter takes before it
// settles on the first option.
const MaxTries = 3

// Plain asks with numbered prompts: it writes to out (stderr or the TTY,
// never stdout, which carries the result) and reads lines from in.
type Plain struct {
	in  *bufio.Reader
	out io.Writer

	// lines are read by one goroutine, started by the first prompt, so a
	// prompt settled elsewhere (ctx ends) stops waiting for a line; the
	// next line then answers the next prompt.
	start sync.Once
	lines chan line
}

type line struct {
	text string
	err  error
}

// NewPlain returns a plain prompter.
func NewPlain(in io.Reader, out io.Writer) *Plain {
	return &Plain{in: bufio.NewReader(in), out: out, lines: make(chan line)}
}

// readLine waits for the next line of input, or for ctx to end.
func (p *Plain) readLine(ctx context.Context) (string, error) {
	p.start.Do(func() {
		go func() {
			for {
				text, err := p.in.ReadString('\n')
				p.lines <- line{text, err}
				if err != nil {
					close(p.lines)
					return
				}
			}
		}()
	})
	select {
	case l, ok := <-p.lines:
		if !ok {
			return "", io.EOF
		}
		return l.text, l.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Prompt implements Prompter.
func (p *Plain) Prompt(ctx context.Context, r Request) (Reply, error) {
	r = asDenial(r)
	var options []Choice // numbered 1..n
	var other *Choice
	for i := range r.Choices {
		c := r.Choices[i]
		switch c.ID {
		case otherID:
			other = &c
		case doneID:
			// Plain prompts take every pick at once; Done is never needed.
		default:
			options = append(options, c)
		}
	}
	fmt.Fprintf(p.out, "\n[%s] %s\n", r.Title, r.heading())
	for i, c := range options {
		fmt.Fprintf(p.out, "  %d. %s\n", i+1, c.Name)
	}
	if other != nil {
		fmt.Fprintf(p.out, "  0. %s\n", other.Name)
	}
	ask := "Enter number or 0 for custom: "
	if r.Multi {
		ask = "Enter numbers separated by commas (e.g. 1,3), or 0 for custom: "
	}
	for try := 1; ; try++ {
		if ctx.Err() != nil {
			fmt.Fprintln(p.out, "(settled elsewhere)")
			return Reply{}, ErrCancelled
		}
		fmt.Fprint(p.out, ask)
		line, err := p.readLine(ctx)
		if ctx.Err() != nil {
			fmt.Fprintln(p.out, "(settled elsewhere)")
			return Reply{}, ErrCancelled
		}
		if err != nil && line == "" {
			fmt.Fprintln(p.out)
			return Reply{}, ErrCancelled
		}
		// Input from a pipe is not echoed: show it, so the transcript reads.
		fmt.Fprintln(p.out, strings.TrimSpace(line))
		reply, problem := p.parse(ctx, strings.TrimSpace(line), options, other, r)
		if ctx.Err() != nil {
			fmt.Fprintln(p.out, "(settled elsewhere)")
			return Reply{}, ErrCancelled
		}
		if problem == "" {
			return reply, nil
		}
		if try >= MaxTries {
			fmt.Fprintf(p.out, "Warning: no valid answer after %d tries; taking the first option, %q.\n", MaxTries, options[0].Name)
			return Reply{IDs: []string{options[0].ID}}, nil
		}
		fmt.Fprintf(p.out, "Invalid answer: %s. Try again.\n", problem)
	}
}

// parse reads "2", "1,3" or "0"; "0" asks for the custom text.
func (p *Plain) parse(ctx context.Context, line string, options []Choice, other *Choice, r Request) (Reply, string) {
	if line == "" {
		return Reply{}, "nothing entered"
	}
	fields := strings.Split(line, ",")
	if !r.Multi && len(fields) > 1 {
		return Reply{}, "pick one number"
	}
	var reply Reply
	seen := map[int]bool{}
	for _, f := range fields {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 || n > len(options) || (n == 0 && other == nil) {
			return Reply{}, fmt.Sprintf("%q is not one of the numbers shown", strings.TrimSpace(f))
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		if n == 0 {
			continue
		}
		reply.IDs = append(reply.IDs, options[n-1].ID)
	}
	if seen[0] {
		fmt.Fprint(p.out, r.typedLabel())
		text, _ := p.readLine(ctx)
		if ctx.Err() != nil {
			return Reply{}, "settled elsewhere"
		}
		text = strings.TrimSpace(text)
		fmt.Fprintln(p.out, text)
		if text == "" {
			return Reply{}, "the custom answer is empty"
		}
		if err := r.Kind.Check(text); err != nil {
			return Reply{}, err.Error()
		}
		reply.IDs = append(reply.IDs, other.ID)
		reply.Custom = text
	}
	return reply, ""
}
