package conformance

import (
	"bytes"
	"regexp"
	"strconv"

	"github.com/askbridge/askbridge/adapter/dialect/asktool"
)

// Replays list `askbridge mcp` as these, so that fixtures do not depend on
// where askbridge and its socket are; a binary replay's real paths are
// normalised to them.
const (
	MCPCommand = "/askbridge"
	MCPSocket  = "/ask.sock"
)

// mcpEntry matches the head of the server entry askbridge adds to
// session/new, with the command and socket it was started with.
var mcpEntry = lazyRegexp(`"name":"([^"]*)","command":"[^"]*","args":\["mcp"\],"env":\[\{"name":"ASKBRIDGE_SOCKET","value":"[^"]*"\}`)

// The http entry askbridge lists for agents that take no stdio server
// (Copilot CLI): its port and bearer token are new each run, and a fixture
// writes them MCPPort and MCPToken. The tag is the path's last part.
const (
	MCPPort  = "PORT"
	MCPToken = "$MCP_TOKEN"
)

var (
	mcpHTTPURL = lazyRegexp(`"url":"http://127\.0\.0\.1:[0-9]+/mcp/`)
	mcpBearer  = lazyRegexp(`"value":"Bearer [0-9a-f]{64}"`)
)

// withMCPPaths puts MCPCommand and MCPSocket in the entry (MCPPort and
// MCPToken in an http one), and MCPServer for the server's name wherever
// it is.
func withMCPPaths(line []byte) []byte {
	if mcpEntry().Match(line) {
		line = mcpEntry().ReplaceAll(line, []byte(`"name":"$1","command":"`+MCPCommand+`","args":["mcp"],"env":[{"name":"ASKBRIDGE_SOCKET","value":"`+MCPSocket+`"}`))
	}
	if mcpHTTPURL().Match(line) {
		line = mcpHTTPURL().ReplaceAllLiteral(line, []byte(`"url":"http://127.0.0.1:`+MCPPort+`/mcp/`))
		line = mcpBearer().ReplaceAllLiteral(line, []byte(`"value":"Bearer `+MCPToken+`"`))
	}
	return mcpServerName().ReplaceAllLiteral(line, []byte(MCPServer))
}

// The server's name is random per run (asktool.MCPAsk.ServerName): a
// fixture writes it MCPServer, in askbridge's lines and the agent's, and
// the agent side puts in the name askbridge listed.
const MCPServer = "$MCP_SERVER"

var (
	mcpServerPattern = regexp.QuoteMeta(asktool.MCPServerPrefix) + `[g-z]{` + strconv.Itoa(asktool.MCPServerRandom) + `}`
	mcpServerName    = lazyRegexp(mcpServerPattern)
	mcpServerGiven   = lazyRegexp(`"name":"(` + mcpServerPattern + `)","(?:command|url)"`)
)

// withMCPServer replaces MCPServer in line with the name askbridge listed
// in got, what the agent received so far.
func withMCPServer(line []byte, got [][]byte) []byte {
	if !bytes.Contains(line, []byte(MCPServer)) {
		return line
	}
	for _, g := range got {
		if m := mcpServerGiven().FindSubmatch(g); m != nil {
			return bytes.ReplaceAll(line, []byte(MCPServer), m[1])
		}
	}
	return line // askbridge listed no server: the request shows it
}

// A fixture's agent writes the tag askbridge gave the k-th session it
// listed its server in as $MCP_TAG_<k>: the tag is new each run. The agent
// side puts in the tag it received.
var (
	mcpTagRef   = lazyRegexp(`\$MCP_TAG_([0-9]+)`)
	mcpTagGiven = lazyRegexp(`"name":"ASKBRIDGE_MCP_TAG","value":"([^"]*)"|"url":"http://127\.0\.0\.1:[0-9]+/mcp/([^"]*)"`)
)

// withMCPTags replaces the tag references in line with the tags found in
// got, what the agent received so far.
func withMCPTags(line []byte, got [][]byte) []byte {
	if !mcpTagRef().Match(line) {
		return line
	}
	var tags []string
	for _, g := range got {
		for _, m := range mcpTagGiven().FindAllSubmatch(g, -1) {
			tags = append(tags, string(m[1])+string(m[2])) // stdio's env, or http's path
		}
	}
	return mcpTagRef().ReplaceAllFunc(line, func(ref []byte) []byte {
		k, _ := strconv.Atoi(string(mcpTagRef().FindSubmatch(ref)[1]))
		if k < 1 || k > len(tags) {
			return ref // askbridge gave no such tag: the ask shows it
		}
		return []byte(tags[k-1])
	})
}
