//go:build !linux && !darwin

package proctree

// Read is ErrUnsupported: the table is read on Linux and macOS only.
func Read(int) (Proc, error) { return Proc{}, ErrUnsupported }

// List is ErrUnsupported.
func List() ([]Proc, error) { return nil, ErrUnsupported }
