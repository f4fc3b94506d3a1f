// Package asksocket is the `askbridge ask` socket: an agent that only has a
// shell runs `askbridge ask '{"questions":[…]}'`, which finds the running
// askbridge through ASKBRIDGE_SOCKET and asks in the editor. The socket
// lives in a folder only the user can open (dir.go), and refuses a peer
// of another uid where the OS tells it. It is a Unix socket on every OS:
// Windows has them since Windows 10.
//
// The package knows the socket's wire (internal/askwire) and nothing of
// the bridge: whoever serves it (the bridge, package adapter) hands Serve
// an Asker that asks a question set as if the agent had sent it.
package asksocket
