package asktool

import (
	"encoding/json"
	"time"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/mcpask"
	"github.com/askbridge/askbridge/internal/askwire"
)

// mcpTransport is how askbridge lists its ask tool in a session.
type mcpTransport string

const (
	// mcpStdio lists `askbridge mcp`, a child the agent starts: the one
	// transport every ACP agent must take.
	mcpStdio mcpTransport = "stdio"
	// mcpHTTP lists askbridge's own streamable HTTP server (adapter/mcpask
	// HTTP): nothing to start, for agents that take no stdio server.
	mcpHTTP mcpTransport = "http"
)

// mcpTransports is the transport each agent gets, by a word that names it
// (agentWords); an agent not listed gets stdio, which works everywhere it
// was tried. http is listed only when the agent's initialize advertises
// mcpCapabilities.http.
var mcpTransports = []struct {
	word      string
	transport mcpTransport
}{
	// Copilot CLI drops every stdio server a client lists ("Rejecting
	// non-http/sse MCP server") and advertises http and sse.
	{"copilot", mcpHTTP},
	// Kiro CLI 2.14 ignores stdio servers over ACP (and exits on an HTTP
	// entry without a headers list, which askbridge's always has).
	{"kiro", mcpHTTP},
	// Cursor's ACP mode no longer offers its own ask tool; only an MCP
	// tool over HTTP reaches it (askOverHTTP).
	{"cursor", mcpHTTP},
}

// transport picks the transport for the agent (servers.go); d.mu is held.
func (d *MCPAsk) transport() mcpTransport { return d.chooseTransport() }

// httpServer is ACP's McpServerHttp.
type httpServer struct {
	Type    string        `json:"type"`
	Name    string        `json:"name"`
	URL     string        `json:"url"`
	Headers []envVariable `json:"headers"` // HttpHeader has the same fields
}

// listing is the server entry for one session-creating request, tagged:
// `askbridge mcp` with the tag in its environment, or a path of askbridge's
// HTTP server with the tag in the path and a bearer token of its own.
func (d *MCPAsk) listing(h dialect.Host, tag string) (json.RawMessage, mcpTransport, error) {
	name := d.ServerName()
	d.mu.Lock()
	t := d.transport()
	if t == mcpStdio {
		entry := stdioServer{Name: name, Command: d.Command, Args: []string{"mcp"},
			Env: []envVariable{{askwire.SocketEnv, d.Socket}, {askwire.TagEnv, tag}}}
		if d.Progress != 0 && d.Progress != mcpask.ProgressFor { // the default goes unsaid: listings stay as they were
			entry.Env = append(entry.Env, envVariable{mcpask.ProgressEnv, progressValue(d.Progress)})
		}
		d.mu.Unlock()
		return dialect.MustJSON(entry), t, nil
	}
	if d.http == nil {
		d.http = mcpask.NewHTTP(d.Socket, h.Limits(), h.Logger())
		d.http.SetProgress(d.Progress)
	}
	srv := d.http
	d.mu.Unlock()
	url, token, err := srv.Add(tag)
	if err != nil {
		return nil, t, err
	}
	return dialect.MustJSON(httpServer{Type: "http", Name: name, URL: url,
		Headers: []envVariable{{"Authorization", "Bearer " + token}}}), t, nil
}

// progressValue is Progress as mcpask.ProgressEnv spells it: 0 for none.
func progressValue(d time.Duration) string {
	if d < 0 {
		return "0"
	}
	return d.String()
}

// unlist ends the HTTP listing of tag, if it has one: its session did not
// start.
func (d *MCPAsk) unlist(tag string) {
	d.mu.Lock()
	srv := d.http
	d.mu.Unlock()
	if srv != nil {
		srv.Remove(tag)
	}
}

// Close stops the HTTP server, if one was started; the bridge calls it as
// it stops.
func (d *MCPAsk) Close() error {
	d.mu.Lock()
	srv := d.http
	d.http = nil
	d.mu.Unlock()
	if srv == nil {
		return nil
	}
	return srv.Close()
}
