package desk

import (
	"encoding/binary"
	"errors"
	"net"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// diagUID asks the kernel (sock_diag, NETLINK_SOCK_DIAG: what ss uses,
// open to any user) for the owner of the one TCP socket whose source is
// from and destination to: a lookup by the 4-tuple, where /proc/net/tcp
// lists every socket of the system for each connection.
func diagUID(from, to *net.TCPAddr) (int, error) {
	family, size := unix.AF_INET, net.IPv4len
	if from.IP.To4() == nil {
		family, size = unix.AF_INET6, net.IPv6len
	}
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return -1, os.NewSyscallError("socket", err)
	}
	defer unix.Close(fd)
	tv := unix.Timeval{Sec: 1}
	unix.SetsockoptTimeval(fd, unix.SOL_SOCKET, unix.SO_RCVTIMEO, &tv)

	// nlmsghdr (16) + inet_diag_req_v2: family, protocol, ext, pad,
	// states (4), then inet_diag_sockid: sport, dport (big-endian), src,
	// dst (16 each), interface (4), cookie (8: none, ~0).
	const hdr, reqLen = 16, 56
	b := make([]byte, hdr+reqLen)
	ne := binary.NativeEndian
	ne.PutUint32(b[0:], uint32(len(b)))
	ne.PutUint16(b[4:], unix.SOCK_DIAG_BY_FAMILY)
	ne.PutUint16(b[6:], unix.NLM_F_REQUEST)
	r := b[hdr:]
	r[0], r[1] = byte(family), unix.IPPROTO_TCP
	ne.PutUint32(r[4:], 0xffffffff) // any state
	binary.BigEndian.PutUint16(r[8:], uint16(from.Port))
	binary.BigEndian.PutUint16(r[10:], uint16(to.Port))
	copy(r[12:12+size], ipOf(from.IP, size))
	copy(r[28:28+size], ipOf(to.IP, size))
	ne.PutUint32(r[48:], 0xffffffff)
	ne.PutUint32(r[52:], 0xffffffff)
	if err := unix.Sendto(fd, b, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return -1, os.NewSyscallError("sendto", err)
	}
	buf := make([]byte, 4096)
	n, _, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return -1, os.NewSyscallError("recvfrom", err)
	}
	msgs, err := syscall.ParseNetlinkMessage(buf[:n])
	if err != nil {
		return -1, err
	}
	for _, m := range msgs {
		switch {
		case m.Header.Type == unix.NLMSG_ERROR:
			if len(m.Data) >= 4 {
				if e := int32(ne.Uint32(m.Data)); e != 0 {
					return -1, os.NewSyscallError("sock_diag", unix.Errno(-e))
				}
			}
		case m.Header.Type == unix.SOCK_DIAG_BY_FAMILY && len(m.Data) >= 72:
			// inet_diag_msg: family, state, timer, retrans, sockid (48),
			// expires, rqueue, wqueue, uid, inode. The kernel falls back to
			// a listener, or a closed socket's TIME_WAIT (uid 0), where no
			// connection matches: only the connection itself answers.
			state := m.Data[1]
			sport, dport := binary.BigEndian.Uint16(m.Data[4:]), binary.BigEndian.Uint16(m.Data[6:])
			if state == tcpListen || state == tcpTimeWait || int(sport) != from.Port || int(dport) != to.Port {
				return -1, errors.New("sock_diag: no such connection")
			}
			return int(ne.Uint32(m.Data[64:])), nil
		}
	}
	return -1, errors.New("sock_diag: no answer")
}

// The TCP states sock_diag names that are no live connection.
const tcpTimeWait, tcpListen = 6, 10

func ipOf(ip net.IP, size int) net.IP {
	if size == net.IPv4len {
		return ip.To4()
	}
	return ip.To16()
}
