package acpv2

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
)

// The protocol versions askbridge speaks. ACP's initialize carries one
// integer each way: the client asks for the latest it supports, the agent
// answers with the same when it supports it, else with its own latest, and
// the client goes on or closes (protocol/v2/initialization, "Version
// Negotiation"). askbridge sits in the middle, so it asks the agent for no
// more than it speaks itself (Max), and speaks on each connection the
// version the agent's answer settled.
const (
	V1  = 1
	V2  = 2
	Max = V2
)

// Conn is what initialize settled on one connection. The zero value is a
// connection that has not initialized: v1.
type Conn struct {
	// Logger hears what was agreed; nil says nothing.
	Logger *slog.Logger

	mu     sync.Mutex
	agreed int // what the agent answered, when the client can speak it; 0 before
	// mcp is what a v2 agent advertised under capabilities.session.mcp
	// (session.go).
	mcp MCP
}

// V2 reports whether the connection speaks ACP v2.
func (c *Conn) V2() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.agreed >= V2
}

// Asked reads initialize's protocolVersion; anything but a non-negative
// integer is taken as v1, as askbridge always did.
func Asked(raw json.RawMessage) int {
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	if err != nil || n < V1 {
		return V1
	}
	return n
}

// Reset starts the connection over: the client sent initialize, nothing
// is agreed yet.
func (c *Conn) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.agreed, c.mcp = 0, MCP{}
}

// CapsPath turns a dialect's default, written for v1's clientCapabilities,
// into the path of the version asked: v2 names the member capabilities
// (clientInfo likewise became info).
func CapsPath(path []string, asked int) []string {
	if asked < V2 || len(path) == 0 || path[0] != "clientCapabilities" {
		return path
	}
	return append([]string{"capabilities"}, path[1:]...)
}

// Agree reads the agent's answer to initialize, and reports whether it
// was one: the version it names is the one spoken from now on, provided
// the client asked for it or more (a higher one is the client's to refuse:
// askbridge goes on as v1, the client will close). On v2 askbridge's own
// requests and notifications to the client then take v2's shapes (Own).
func (c *Conn) Agree(asked int, resp json.RawMessage) bool {
	var r struct {
		Result *struct {
			ProtocolVersion json.RawMessage `json:"protocolVersion"`
			Capabilities    struct {
				Session struct {
					MCP MCP `json:"mcp"`
				} `json:"session"`
			} `json:"capabilities"`
		} `json:"result"`
	}
	if json.Unmarshal(resp, &r) != nil || r.Result == nil {
		return false
	}
	answered := Asked(r.Result.ProtocolVersion)
	agreed := answered
	if answered > min(asked, Max) {
		c.logger().Warn("the agent answered initialize with a protocol version the client did not ask for; the client should close", "asked", asked, "answered", answered)
		agreed = 0
	}
	c.mu.Lock()
	c.agreed = agreed
	c.mcp = r.Result.Capabilities.Session.MCP
	c.mu.Unlock()
	c.logger().Info("protocol version agreed", "asked", asked, "answered", answered, "v2", agreed >= V2)
	return true
}

func (c *Conn) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Logger
}
