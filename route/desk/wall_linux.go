package desk

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// wallSupported: Linux tells a TCP socket's owner in /proc/net/tcp{,6}.
const wallSupported = true

var errNotLoopback = errors.New("not a loopback connection")

// loopbackUID is the uid owning the other end of c, a loopback TCP
// connection: the kernel's answer by sock_diag, else (no netlink here) the
// socket in /proc/net/tcp (tcp6) whose local address is c's remote one and
// whose remote address is c's local one.
func loopbackUID(c net.Conn) (int, error) {
	local, lok := c.LocalAddr().(*net.TCPAddr)
	remote, rok := c.RemoteAddr().(*net.TCPAddr)
	if !lok || !rok || !remote.IP.IsLoopback() {
		return -1, errNotLoopback
	}
	if uid, err := diagUID(remote, local); err == nil {
		return uid, nil
	}
	return procUID(remote, local)
}

// procUID looks the socket from -> to up in /proc/net/tcp{,6}.
func procUID(remote, local *net.TCPAddr) (int, error) {
	want := procAddr(remote) + " " + procAddr(local)
	file := "/proc/net/tcp"
	if remote.IP.To4() == nil {
		file = "/proc/net/tcp6"
	}
	f, err := os.Open(file)
	if err != nil {
		return -1, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local rem st tx:rx tr:when retrnsmt uid ...
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 || fields[1]+" "+fields[2] != want {
			continue
		}
		return strconv.Atoi(fields[7])
	}
	return -1, fmt.Errorf("no socket %s in %s", want, file)
}

// procAddr writes an address as /proc/net/tcp does: the IP's 32-bit words
// as the kernel holds them (network order) read in host order, in hex, then the port.
func procAddr(a *net.TCPAddr) string {
	ip := a.IP.To4()
	if ip == nil {
		ip = a.IP.To16()
	}
	var b strings.Builder
	for i := 0; i < len(ip); i += 4 {
		fmt.Fprintf(&b, "%08X", binary.NativeEndian.Uint32(ip[i:i+4]))
	}
	fmt.Fprintf(&b, ":%04X", a.Port)
	return b.String()
}
