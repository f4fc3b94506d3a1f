package nsinit

import (
	"errors"
	"os"
	"strconv"
	"syscall"
)

// errNoOrders: the socket closed before any orders came (askbridge went
// on without this init, or ended).
var errNoOrders = errors.New("no orders")

// awaitOrders is an early init: it enters its namespaces at once (args:
// -uid N -gid N, absent where they are mapped already), then waits on
// fd 3 for its orders and the agent's stdin, stdout and stderr, and goes
// on as a late init would: seal, start the agent, say so on fd 3, reap.
func awaitOrders(args []string) int {
	st := os.NewFile(3, "orders")
	o, rest, err := parseFlags(args)
	if err == nil && len(rest) > 0 {
		err = errors.New("an early init takes its agent from its orders")
	}
	if err == nil {
		err = enter(o.uid, o.gid)
	}
	if err != nil {
		status(st, "refused", err.Error())
		return 125
	}
	ord, fds, err := receive(3)
	if errors.Is(err, errNoOrders) {
		return 0
	}
	if err != nil {
		status(st, "refused", "orders: "+err.Error())
		return 125
	}
	o, err = parse(ord.Args)
	if err == nil {
		err = seal(o)
	}
	if err != nil {
		status(st, "refused", err.Error())
		return 125
	}
	// What the init itself might say (a crash) goes where the agent's
	// stderr goes, as for a late init; then only the agent holds them.
	syscall.Dup3(fds[2], 2, 0)
	return startAgent(o, st, ord.Env, ord.Dir, []uintptr{uintptr(fds[0]), uintptr(fds[1]), uintptr(fds[2])}, func() {
		for _, fd := range fds {
			syscall.Close(fd)
		}
	})
}

// receive reads the orders on fd and the three files that come with them
// (close-on-exec until they become the agent's).
func receive(fd int) (Orders, []int, error) {
	head := make([]byte, 8)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	var n, oobn int
	var err error
	for {
		n, oobn, _, _, err = syscall.Recvmsg(fd, head, oob, syscall.MSG_CMSG_CLOEXEC)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return Orders{}, nil, err
	}
	if n == 0 {
		return Orders{}, nil, errNoOrders
	}
	fds, err := rights(oob[:oobn])
	if err != nil {
		return Orders{}, nil, err
	}
	fail := func(err error) (Orders, []int, error) {
		for _, f := range fds {
			syscall.Close(f)
		}
		return Orders{}, nil, err
	}
	if len(fds) != 3 {
		return fail(errors.New(strconv.Itoa(len(fds)) + " files instead of the agent's three"))
	}
	if err := readFull(fd, head[n:]); err != nil {
		return fail(err)
	}
	size, err := ordersLen(head)
	if err != nil {
		return fail(err)
	}
	body := make([]byte, size)
	if err := readFull(fd, body); err != nil {
		return fail(err)
	}
	ord, err := decodeOrders(body)
	if err != nil {
		return fail(err)
	}
	return ord, fds, nil
}

// rights are the files an SCM_RIGHTS message carried.
func rights(oob []byte) ([]int, error) {
	msgs, err := syscall.ParseSocketControlMessage(oob)
	if err != nil {
		return nil, err
	}
	var fds []int
	for _, m := range msgs {
		got, err := syscall.ParseUnixRights(&m)
		if err != nil {
			return nil, err
		}
		fds = append(fds, got...)
	}
	return fds, nil
}

func readFull(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := syscall.Read(fd, b)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return err
		case n == 0:
			return errors.New("orders cut short")
		}
		b = b[n:]
	}
	return nil
}
