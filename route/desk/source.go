package desk

import (
	"net"
	"net/http"
	"strconv"
)

// source is who makes r, as pairing's limits count it (pairing.SlowDown):
// its address (an IPv6 address's /64, one host's share), and on loopback,
// where every local process has the same few addresses, also its uid
// where the system says it (Linux), so that another user's wrong codes do
// not slow down yours. Behind --public-url's proxy every phone is the
// proxy's address.
func source(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	ip := net.ParseIP(host)
	if err != nil || ip == nil {
		return r.RemoteAddr
	}
	switch {
	case ip.IsLoopback():
		local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
		if uid, ok := sourceUID(r.RemoteAddr, local); ok {
			return ip.String() + " uid " + strconv.Itoa(uid)
		}
		return ip.String()
	case ip.To4() != nil:
		return ip.String()
	}
	return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
}
