package activation

import (
	"fmt"
	"net"
)

// Listeners are the sockets a service manager handed this process, as
// listeners; none without socket activation. The process takes them once:
// the variables that name them are gone afterwards.
func Listeners() ([]net.Listener, error) {
	fs, err := files()
	if err != nil {
		return nil, err
	}
	var lns []net.Listener
	for _, f := range fs {
		fd := f.Fd()
		ln, lerr := net.FileListener(f) // a copy of the fd; the manager keeps its own
		f.Close()
		if lerr != nil && err == nil {
			err = fmt.Errorf("socket activation: fd %d (%s) is not a listening socket: %w", fd, f.Name(), lerr)
		}
		if lerr == nil {
			lns = append(lns, ln)
		}
	}
	if err != nil {
		for _, ln := range lns {
			ln.Close()
		}
		return nil, err
	}
	return lns, nil
}
