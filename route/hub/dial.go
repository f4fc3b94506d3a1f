package hub

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/peercred"
	"github.com/askbridge/askbridge/internal/proctree"
	"github.com/askbridge/askbridge/internal/sockdir"
)

// ErrRefused is a hub the client would not speak to: not in this user's
// folder, inside the client's own process tree, or not holding the key the
// client trusts. Each says why, on one line.
var ErrRefused = errors.New("refused the hub")

// Dial reaches the hub on the socket at path and speaks proto with it
// (hubkey.ALPNHub, hubkey.ALPNInbox) once the hub proves it is the hub:
// its folder is this user's alone and its listener is this user's
// process (sockdir.Dial), that process is neither this one nor below it
// (an agent this askbridge runs, which could have bound the socket after
// the hub went), and it holds the hub's key (hubkey.Trusted), proved by
// the TLS handshake on this very connection.
func Dial(ctx context.Context, path, proto string) (net.Conn, error) {
	uc, err := sockdir.Dial(ctx, path)
	if err != nil {
		return nil, err
	}
	trusted, err := hubkey.Trusted()
	if err == nil {
		err = notBelowMe(uc, path)
	}
	if err != nil {
		uc.Close()
		return nil, fmt.Errorf("%w on %s: %v", ErrRefused, path, err)
	}
	c := tls.Client(uc, hubkey.ClientTLS(trusted, proto))
	if err := c.HandshakeContext(ctx); err != nil {
		c.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w on %s: %v", ErrRefused, path, err)
	}
	return c, nil
}

// notBelowMe refuses a listener that is this process or in its tree, as
// the kernel says who listens (peercred: the process that bound the
// socket), unless this process is the hub on path itself (Listen, as a
// test or a benchmark runs both ends). Where the OS does not say
// (Windows), the key is all there is.
func notBelowMe(c *net.UnixConn, path string) error {
	if !peercred.Supported {
		return nil
	}
	cred, err := peercred.Get(c)
	if err != nil {
		return fmt.Errorf("cannot tell who listens (%v)", err)
	}
	me := os.Getpid()
	if cred.PID == me {
		if _, ok := listening.Load(path); ok {
			return nil
		}
		return errors.New("it is this askbridge itself")
	}
	below, err := proctree.Descends(cred.PID, func(p int) bool { return p == me })
	switch {
	case err != nil:
		return fmt.Errorf("process %d listens, and is not known to be outside this askbridge's agent's tree (%v)", cred.PID, err)
	case below:
		return fmt.Errorf("process %d listens, inside this askbridge's own process tree (its agent's): only the hub may answer", cred.PID)
	}
	return nil
}

// listening are the sockets this process serves as the hub (Listen).
var listening sync.Map
