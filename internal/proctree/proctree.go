package proctree

import (
	"errors"
	"fmt"
)

// Proc is a process as the system's table shows it.
type Proc struct {
	PID    int
	PPID   int    // its parent
	PGID   int    // its process group
	SID    int    // its session (0 where the OS does not say: macOS)
	Name   string // the kernel's name for it (comm), which only the process itself changes
	Zombie bool   // it ended and waits to be reaped
}

// ErrUnsupported is Read or List on an OS where this package cannot read
// the process table.
var ErrUnsupported = errors.New("the process table cannot be read on this system")

// Parent is pid's parent.
func Parent(pid int) (int, error) {
	p, err := Read(pid)
	return p.PPID, err
}

// Children are the processes whose parent is pid, zombies included.
func Children(pid int) ([]Proc, error) {
	all, err := List()
	if err != nil {
		return nil, err
	}
	var out []Proc
	for _, p := range all {
		if p.PPID == pid && p.PID != pid {
			out = append(out, p)
		}
	}
	return out, nil
}

// Descends says whether pid is a root (isRoot) or below one, walking its
// parents up to init. A process whose parent cannot be read (it ended) is
// not known to be outside, so it counts as inside: err says why.
func Descends(pid int, isRoot func(pid int) bool) (bool, error) {
	for range 4096 { // a cycle cannot happen, a bound costs nothing
		if isRoot(pid) {
			return true, nil
		}
		if pid <= 1 {
			return false, nil
		}
		parent, err := Parent(pid)
		if err != nil {
			return true, fmt.Errorf("process %d: %w", pid, err)
		}
		pid = parent
	}
	return true, errors.New("the chain of parents does not end")
}
