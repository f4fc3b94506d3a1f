// Package acpv2 is what the ACP version spoken changes for askbridge: the
// version initialize settles on a connection (Conn), the shape of the
// client capabilities askbridge advertises (CapsPath), askbridge's own
// requests and notifications in v2's shapes (Own), v2's session state
// while a question waits on the user (Conn.WaitOnUser), and the MCP
// servers askbridge lists, fitted to what a v2 agent advertised
// (Conn.Install). On v1 nothing changes. It knows the relay, nothing of
// the bridge.
package acpv2
