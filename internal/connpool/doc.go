// Package connpool keeps connections that have not authenticated from
// crowding out the user's own, in askbridge's HTTP servers (the desk, the
// hub's page, the MCP ask tool's HTTP transport).
//
// Every accepted connection starts as a stranger, in a pool of bounded
// size. When a request on it authenticates (the server says how, with a
// small func), the connection leaves that pool for good: no stranger can
// then displace it, whatever their number. When the pool is full, a new
// connection displaces a stranger rather than being turned away, so that
// the user's next connection always gets in: the oldest of the source
// address holding the most strangers, and one of an address that
// authenticated lately only when no other address holds any (fair.go).
// Beyond loopback a remote address (an IPv6 /64) may hold only a few
// strangers at once. Strangers get a short header timeout
// (HeaderTimeout): a connection that sends nothing is closed soon. A
// server records whose (a paired device's) each connection is, and
// closes them all when that device is revoked (owner.go).
package connpool
