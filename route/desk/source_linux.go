package desk

import (
	"bufio"
	"encoding/binary"
	"net"
	"os"
	"strconv"
	"strings"
)

// sourceUID is the uid owning the client end of a loopback TCP
// connection from remote to local, as /proc/net/tcp{,6} lists it: the
// kernel's word, which a client cannot choose.
func sourceUID(remote string, local net.Addr) (int, bool) {
	r, err := net.ResolveTCPAddr("tcp", remote)
	l, ok := local.(*net.TCPAddr)
	if err != nil || !ok {
		return 0, false
	}
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		if uid, ok := findSocket(file, r, l); ok {
			return uid, true
		}
	}
	return 0, false
}

// findSocket looks in file for the socket whose local end is r and whose
// remote end is l: the client's.
func findSocket(file string, r, l *net.TCPAddr) (int, bool) {
	f, err := os.Open(file)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 || !procAddrIs(fields[1], r) || !procAddrIs(fields[2], l) {
			continue
		}
		uid, err := strconv.Atoi(fields[7])
		return uid, err == nil
	}
	return 0, false
}

// procAddrIs says whether /proc/net/tcp's "HEXIP:HEXPORT" is a: the IP as
// 32-bit words printed in host order, an IPv4 address in tcp6 as
// ::ffff:a.b.c.d.
func procAddrIs(s string, a *net.TCPAddr) bool {
	hexIP, hexPort, ok := strings.Cut(s, ":")
	port, err := strconv.ParseUint(hexPort, 16, 16)
	if !ok || err != nil || int(port) != a.Port || len(hexIP)%8 != 0 {
		return false
	}
	ip := make(net.IP, 0, 16)
	for i := 0; i < len(hexIP); i += 8 {
		w, err := strconv.ParseUint(hexIP[i:i+8], 16, 32)
		if err != nil {
			return false
		}
		ip = binary.NativeEndian.AppendUint32(ip, uint32(w))
	}
	return ip.Equal(a.IP)
}
