package contain

import (
	"errors"
	"fmt"
	"time"

	"github.com/askbridge/askbridge/internal/contain/nsinit"
)

// Mode is --contain's value: Auto (contain where the system allows, else say
// so and go on), On (contain or refuse to start), Off.
type Mode int

// The modes; Auto is the zero value and the default.
const (
	Auto Mode = iota
	On
	Off
)

func (m Mode) String() string {
	switch m {
	case On:
		return "on"
	case Off:
		return "off"
	}
	return "auto"
}

// Set is flag.Value's.
func (m *Mode) Set(s string) error {
	switch s {
	case "auto":
		*m = Auto
	case "on":
		*m = On
	case "off":
		*m = Off
	default:
		return fmt.Errorf("%q is not auto, on or off", s)
	}
	return nil
}

// Options say what a contained agent does not see.
type Options struct {
	// Hide are folders the agent sees empty: askbridge's runtime, state and
	// config folders (the caller makes them first: a folder that does not
	// exist is left alone). Their parents that the user could rename are
	// pinned where they are, so that the agent cannot move a hidden
	// folder away and make a fresh one in its place.
	Hide []string
	// Keep are paths inside Hide the agent still reaches: its ask socket.
	// Each one's folder is bound back where it was.
	Keep []string
	// Grace is how long what the agent leaves behind gets to end after the
	// agent exits, before the kernel ends it. Zero means 2s.
	Grace time.Duration
}

// ErrRefused is wrapped by Start's error when the system will not contain
// the agent (nothing was started): askbridge may run it uncontained.
var ErrRefused = errors.New("the system refuses to contain the agent")

type refusedError struct{ err error }

func (e *refusedError) Error() string   { return "cannot contain the agent: " + e.err.Error() }
func (e *refusedError) Unwrap() []error { return []error{ErrRefused, e.err} }
func refused(err error) error           { return &refusedError{err} }
func refusedf(f string, a ...any) error { return refused(fmt.Errorf(f, a...)) }

var _ interface{ Unwrap() []error } = (*refusedError)(nil)

// InitArg is the hidden first argument that makes askbridge the init of an
// agent's namespaces (package nsinit, whose own init function runs it).
const InitArg = nsinit.Arg
