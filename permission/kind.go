package permission

import (
	"fmt"
	"sync"
)

// AnswerKind is what answer a question takes, said the way its renderers
// need it: one pick or many, whether typed text is offered beside the
// options ("Other"), whether what is typed is read by the agent alone,
// whether the question carries a page to open, and, for a kind registered
// beyond these, what the typed text must be. Renderers (the permission
// request, the desk and hub page, the terminal prompter and inbox, the
// notifiers) ask a question's kind, never which kind it is, so a kind that
// needs nothing new of them is one file: see RegisterKind.
//
// The zero value is Choice. The kinds the wire's old flags describe
// (multiSelect, noOther, secret, link) are property sets with no Name, so
// a question's JSON is what it was when they were flags; a registered kind
// adds its Name as "kind".
type AnswerKind struct {
	// Name is a registered kind's name in the table and on the wire ("kind");
	// "" for the kinds the flags describe.
	Name string
	// Many: any number of the options is picked (multiSelect).
	Many bool
	// Fixed: only the options answer; no typed text is offered (noOther),
	// where the asker could not take it and it would be lost.
	Fixed bool
	// Secret: the typed text is read by the agent alone (SecretText).
	Secret bool
	// Link: the question carries a page to open (Question.Link), shown in
	// full with its host; askbridge never fetches or opens it.
	Link bool
	// Input says what the typed text is for a renderer that can say so (an
	// HTML input type: "number", "date"); "" is any text.
	Input string
	// Hint is what the typed text's field says ("a number"); "" says
	// nothing more than the field's usual words.
	Hint string
}

// The kinds of the table. Each of the first six is what a question's flags
// said before there were kinds; a dialect picks one, or sets the
// properties a form's field needs (a multi-select with no free-text field
// beside it is Multi made Fixed).
var (
	// Choice: one of the options, or typed text (Other).
	Choice = AnswerKind{}
	// Multi: any of the options, or typed text.
	Multi = AnswerKind{Many: true}
	// Fixed: one of the options and nothing else.
	Fixed = AnswerKind{Fixed: true}
	// FixedMulti: any of the options and nothing else.
	FixedMulti = AnswerKind{Many: true, Fixed: true}
	// Secret: one of the options, or typed text only the agent reads.
	Secret = AnswerKind{Secret: true}
	// Link: a page to open (Question.Link), answered by its options only.
	Link = AnswerKind{Fixed: true, Link: true}
)

// registered holds the kinds beyond the flags, by name, with their checks.
var registered = struct {
	sync.RWMutex
	kinds  map[string]AnswerKind
	checks map[string]func(string) error
}{kinds: map[string]AnswerKind{}, checks: map[string]func(string) error{}}

// RegisterKind adds k to the table under k.Name, with check, which says
// why a typed answer is not one of k (nil: any text is), and returns k.
// It is the whole of a new kind that the renderers show by its properties
// (a number: Input "number", and a check that parses it), as
// sql.Register is of a driver; it panics on an empty or taken name.
func RegisterKind(k AnswerKind, check func(text string) error) AnswerKind {
	registered.Lock()
	defer registered.Unlock()
	if k.Name == "" {
		panic("permission: RegisterKind of a kind with no name")
	}
	if _, taken := registered.kinds[k.Name]; taken {
		panic("permission: RegisterKind of " + k.Name + " twice")
	}
	registered.kinds[k.Name] = k
	registered.checks[k.Name] = check
	return k
}

// KindNamed is the registered kind called name, if there is one.
func KindNamed(name string) (AnswerKind, bool) {
	registered.RLock()
	defer registered.RUnlock()
	k, ok := registered.kinds[name]
	return k, ok
}

// Typed reports whether the kind offers typed text beside its options.
func (k AnswerKind) Typed() bool { return !k.Fixed }

// Check says why text is not a typed answer of k (nil when it is): a
// *NotOfKind.
func (k AnswerKind) Check(text string) error {
	if k.Name == "" {
		return nil
	}
	registered.RLock()
	check := registered.checks[k.Name]
	registered.RUnlock()
	if check == nil {
		return nil
	}
	if err := check(text); err != nil {
		return &NotOfKind{Text: text, Kind: k, Err: err}
	}
	return nil
}

// NotOfKind is a typed answer its kind's check refused: the asking flow
// asks the question again saying so, the desk refuses the answer.
type NotOfKind struct {
	Text string
	Kind AnswerKind
	Err  error
}

func (e *NotOfKind) Error() string {
	return fmt.Sprintf("%q is not %s (%v)", e.Text, e.Kind.describe(), e.Err)
}

func (e *NotOfKind) Unwrap() error { return e.Err }

func (k AnswerKind) describe() string {
	if k.Hint != "" {
		return k.Hint
	}
	return "a " + k.Name
}

// String names the kind, for logs.
func (k AnswerKind) String() string {
	switch k {
	case Choice:
		return "choice"
	case Multi:
		return "multi"
	case Fixed:
		return "fixed"
	case FixedMulti:
		return "fixed multi"
	case Secret:
		return "secret"
	case Link:
		return "link"
	}
	if k.Name != "" {
		return k.Name
	}
	return fmt.Sprintf("%+v", struct{ Many, Fixed, Secret, Link bool }{k.Many, k.Fixed, k.Secret, k.Link})
}
