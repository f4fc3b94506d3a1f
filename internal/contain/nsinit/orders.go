package nsinit

import (
	"errors"
	"strconv"
	"strings"
)

// AwaitArg, right after Arg, makes the init one that askbridge starts
// before it knows its agent (package contain's early start): it enters its
// namespaces and then waits on fd 3, a socket, for its Orders. Only the
// process that started it holds the socket's other end.
const AwaitArg = "-await"

// Orders are what an early init is told once askbridge knows its agent:
// the arguments a late init would have been started with (flags, "--", the
// agent's path and argv), the agent's environment and its folder ("": the
// init's own). The agent's stdin, stdout and stderr travel beside them on
// the socket, as SCM_RIGHTS.
type Orders struct {
	Args []string
	Env  []string
	Dir  string
}

// ordersMax bounds what an init reads: a command line and an environment,
// as exec would take them (the kernel's own cap on both is 2 MiB).
const ordersMax = 4 << 20

// Encode writes the orders as their length (8 bytes, big-endian) and then
// the count of Args, the Args, the count of Env, the Env and Dir, each
// ended by a NUL: no string of them can hold one, as exec's cannot.
func (o Orders) Encode() ([]byte, error) {
	var b strings.Builder
	put := func(s string) { b.WriteString(s); b.WriteByte(0) }
	for _, list := range [][]string{o.Args, o.Env} {
		put(strconv.Itoa(len(list)))
		for _, s := range list {
			if strings.IndexByte(s, 0) >= 0 {
				return nil, errors.New("an argument or variable holds a NUL byte")
			}
			put(s)
		}
	}
	if strings.IndexByte(o.Dir, 0) >= 0 {
		return nil, errors.New("the agent's folder holds a NUL byte")
	}
	put(o.Dir)
	if b.Len() > ordersMax {
		return nil, errors.New("the agent's command line and environment are too long")
	}
	out := make([]byte, 8, 8+b.Len())
	for i, n := 0, b.Len(); i < 8; i++ {
		out[7-i] = byte(n >> (8 * i))
	}
	return append(out, b.String()...), nil
}

// ordersLen reads the length that heads encoded orders.
func ordersLen(head []byte) (int, error) {
	n := 0
	for _, c := range head[:8] {
		n = n<<8 | int(c)
	}
	if n <= 0 || n > ordersMax {
		return 0, errors.New("orders of " + strconv.Itoa(n) + " bytes")
	}
	return n, nil
}

// decodeOrders reads what Encode wrote after the length.
func decodeOrders(body []byte) (Orders, error) {
	fields := strings.Split(string(body), "\x00")
	if len(fields) == 0 || fields[len(fields)-1] != "" {
		return Orders{}, errors.New("orders not ended by a NUL")
	}
	fields = fields[:len(fields)-1]
	list := func() ([]string, error) {
		if len(fields) == 0 {
			return nil, errors.New("orders cut short")
		}
		n, err := strconv.Atoi(fields[0])
		if err != nil || n < 0 || n > len(fields)-1 {
			return nil, errors.New("orders with a bad count")
		}
		out := fields[1 : 1+n]
		fields = fields[1+n:]
		return out, nil
	}
	var o Orders
	var err error
	if o.Args, err = list(); err != nil {
		return o, err
	}
	if o.Env, err = list(); err != nil {
		return o, err
	}
	if len(fields) != 1 {
		return o, errors.New("orders with " + strconv.Itoa(len(fields)) + " trailing fields")
	}
	o.Dir = fields[0]
	return o, nil
}
