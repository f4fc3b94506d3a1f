package adapter

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/askbridge/askbridge/adapter/relay"
)

// The protocol versions askbridge speaks. ACP's initialize carries one
// integer each way: the client asks for the latest it supports, the agent
// answers with the same when it supports it, else with its own latest, and
// the client goes on or closes (protocol/v2/initialization, "Version
// Negotiation"). askbridge sits in the middle, so it asks the agent for no
// more than it speaks itself, and speaks on each connection the version the
// agent's answer settled.
const (
	protoV1  = 1
	protoV2  = 2
	protoMax = protoV2
)

// protocol is what initialize settled on one connection.
type protocol struct {
	asked  int // what the client asked for (1 when it said nothing usable)
	agreed int // what the agent answered, when the client can speak it; 0 before
	// mcp is what a v2 agent advertised under capabilities.session.mcp
	// (v2session.go).
	mcp v2MCP
}

// v2 reports whether the connection speaks ACP v2.
func (p protocol) v2() bool { return p.agreed >= protoV2 }

// askedVersion reads initialize's protocolVersion; anything but a
// non-negative integer is taken as v1, as askbridge always did.
func askedVersion(raw json.RawMessage) int {
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	if err != nil || n < protoV1 {
		return protoV1
	}
	return n
}

// capsPath turns a dialect's default, written for v1's clientCapabilities,
// into the path of the version asked: v2 names the member capabilities
// (clientInfo likewise became info).
func capsPath(path []string, asked int) []string {
	if asked < protoV2 || len(path) == 0 || path[0] != "clientCapabilities" {
		return path
	}
	return append([]string{"capabilities"}, path[1:]...)
}

// agreeVersion reads the agent's answer to initialize: the version it
// names is the one spoken from now on, provided the client asked for it or
// more (a higher one is the client's to refuse: askbridge goes on as v1,
// the client will close). On v2 askbridge's own requests and notifications
// to the client take v2's shapes (ownToV2).
func (b *Bridge) agreeVersion(asked int) func(json.RawMessage) json.RawMessage {
	return func(resp json.RawMessage) json.RawMessage {
		var r struct {
			Result *struct {
				ProtocolVersion json.RawMessage `json:"protocolVersion"`
				Capabilities    struct {
					Session struct {
						MCP v2MCP `json:"mcp"`
					} `json:"session"`
				} `json:"capabilities"`
			} `json:"result"`
		}
		if json.Unmarshal(resp, &r) != nil || r.Result == nil {
			return nil
		}
		answered := askedVersion(r.Result.ProtocolVersion)
		agreed := answered
		if answered > min(asked, protoMax) {
			b.logger.Warn("the agent answered initialize with a protocol version the client did not ask for; the client should close", "asked", asked, "answered", answered)
			agreed = 0
		}
		b.mu.Lock()
		b.proto.agreed = agreed
		b.proto.mcp = r.Result.Capabilities.Session.MCP
		b.mu.Unlock()
		if b.relay == nil {
			return nil
		}
		b.relay.Client.SetOwn(b.ownRewrite)
		b.logger.Info("protocol version agreed", "asked", asked, "answered", answered, "v2", agreed >= protoV2)
		return nil
	}
}

// speaksV2 reports whether this connection agreed on ACP v2.
func (b *Bridge) speaksV2() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.proto.v2()
}

// ownToV2 rewrites a request or notification askbridge itself sends the
// client into v2's shape (v2wire.go); nil keeps it.
var ownToV2 relay.Rewrite = func(msg json.RawMessage) json.RawMessage {
	var env map[string]json.RawMessage
	if json.Unmarshal(msg, &env) != nil {
		return nil
	}
	var method string
	json.Unmarshal(env["method"], &method)
	var params json.RawMessage
	switch method {
	case "session/request_permission":
		params = permissionToV2(env["params"])
	case "session/update":
		params = updateToV2(env["params"])
	}
	if params == nil {
		return nil
	}
	env["params"] = params
	out, err := json.Marshal(env)
	if err != nil {
		return nil
	}
	return out
}
