package asktool

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/mcpask"
	"github.com/askbridge/askbridge/adapter/relay"
	"github.com/askbridge/askbridge/internal/askwire"
)

// MCPAsk is the dialect of agents that cannot ask the user anything under
// ACP (Gemini CLI, Mistral Vibe, Kiro...) but start every stdio MCP server
// a client lists: askbridge adds its own, `askbridge mcp`, to each session
// the client opens, without touching the client's servers. The server's
// ask_user_question tool asks over the ask socket with the tag of the
// request that listed it, and the tag names the session: questions reach
// the right session with several open. The agent's permission request to
// run that tool is askbridge's to answer (allowed once, for that call); the
// user sees the question, not "allow ask_user_question?", and the client is
// told the tool call is running, as Gemini's later updates of it expect.
//
// Copilot CLI starts no stdio server: it gets the tool over HTTP, served by
// askbridge itself (mcpask_http.go says which agent gets which transport).
//
// Only that request is askbridge's: the server's name carries a random part
// made for this process (ServerName), and a request is answered only when it
// has the exact shape of the agent's own MCP approval for that server and
// tool (mcpapproval.go). Everything else is the user's, byte for byte.
//
// Its Config goes in when the table of dialects is built
// (adapter.DialectsWith): without a command and a socket nothing is
// injected.
type MCPAsk struct {
	Config

	mu       sync.Mutex
	server   string // the server's name, made on first use
	agent    agentIdentity
	tags     map[string]string // tag -> session id
	sessions map[string]bool   // sessions the server was listed in
	noted    bool              // the Gemini trust note was logged
	http     *mcpask.HTTP      // the tool over HTTP, once listed so
}

// The server as agents see it: Gemini offers its tool to the model as
// mcp_askbridge-<random>_ask_user_question.
const (
	// MCPServerPrefix starts the server's name; MCPServerRandom letters
	// from g to z follow (no hex digit, so no id askbridge makes can be
	// taken for one: fixtures normalise the name by that shape). Neither
	// underscore nor space: Gemini splits mcp_<server>_<tool> at the first
	// underscore.
	MCPServerPrefix = "askbridge-"
	MCPServerRandom = 12
	mcpToolName     = "ask_user_question"
)

// Config is the MCP ask tool's listing, as the flags say it.
type Config struct {
	// Inject says for which agents; the zero value is InjectAuto.
	Inject Inject
	// Command is the askbridge executable the agent runs as `askbridge mcp`.
	Command string
	// Socket is the ask socket's path, given to the server.
	Socket string
	// Argv is the agent's command line, to recognise the agent.
	Argv []string
	// Progress is the tool's ceiling of progress notifications
	// (mcpask.Options.ProgressFor): zero is the default, negative none.
	Progress time.Duration
}

// Name implements Dialect.
func (*MCPAsk) Name() string { return "mcp-ask" }

// Hooks implements Dialect: the server's questions are _askbridge/ask
// carrying an mcpTag, over the socket.
func (*MCPAsk) Hooks() []dialect.Hook {
	return []dialect.Hook{{From: dialect.FromAgent, Method: askwire.Method}}
}

// Claim implements Dialect: a tagged ask is the Ask dialect's, asked in
// the tag's session. An ask without a tag, or with a tag askbridge did not
// give, is left to Ask.
func (d *MCPAsk) Claim(h dialect.Host, m *relay.Message) *dialect.Claim {
	var env struct {
		Params struct {
			MCPTag string `json:"mcpTag"`
		} `json:"params"`
	}
	if json.Unmarshal(m.Raw, &env) != nil || env.Params.MCPTag == "" {
		return nil
	}
	tag := env.Params.MCPTag
	d.mu.Lock()
	session, ok := d.tags[tag]
	d.mu.Unlock()
	if !ok {
		// Not a tag this askbridge gave (a server started by hand, or for
		// a session that failed to start): ask where Ask would.
		h.Logger().Warn("mcp-ask: no session has this MCP tag; asking in the active session", "tag", tag)
		return nil
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(m.Raw, &msg) != nil {
		return nil
	}
	params, err := setValue(msg["params"], "sessionId", dialect.MustJSON(session))
	if err != nil {
		return nil
	}
	msg["params"] = params
	return (&Ask{}).Claim(h, &relay.Message{From: m.From, Method: m.Method, ID: m.ID, Raw: dialect.MustJSON(msg)})
}

// Rewrites implements Rewriter: learn the agent from initialize, list the
// server in each session-creating request, answer the server's permission.
func (d *MCPAsk) Rewrites(h dialect.Host) []dialect.Rewrite {
	var out []dialect.Rewrite
	out = append(out, dialect.Rewrite{Hook: dialect.Hook{From: dialect.FromClient, Method: acp.AgentMethodInitialize}, Intercept: d.onInitialize})
	for _, method := range []string{acp.AgentMethodSessionNew, acp.AgentMethodSessionLoad, acp.AgentMethodSessionResume, acp.AgentMethodSessionFork} {
		out = append(out, dialect.Rewrite{Hook: dialect.Hook{From: dialect.FromClient, Method: method}, Intercept: d.onSessionStart(h, method)})
	}
	out = append(out, dialect.Rewrite{Hook: dialect.Hook{From: dialect.FromAgent, Method: acp.ClientMethodSessionRequestPermission}, Intercept: d.onPermission(h)})
	return out
}

// onInitialize reads the agent's answer: who it is, which session methods
// it has.
func (d *MCPAsk) onInitialize(*relay.Message) relay.Verdict {
	return relay.Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
		var r struct {
			Result *agentIdentity `json:"result"`
		}
		if json.Unmarshal(resp, &r) == nil && r.Result != nil {
			d.mu.Lock()
			d.agent = *r.Result
			d.agent.known = true
			d.mu.Unlock()
		}
		return nil
	}}
}

// onSessionStart lists the server in a session-creating request, tagged,
// and maps the tag to the session: the one named in the params (load,
// resume), else the one the response names (new, fork).
func (d *MCPAsk) onSessionStart(h dialect.Host, method string) relay.Interceptor {
	return func(m *relay.Message) relay.Verdict {
		if !d.injects(h, method) {
			return relay.Pass
		}
		var p struct {
			SessionID string `json:"sessionId"`
		}
		if m.Params(&p) != nil {
			return relay.Pass
		}
		tag := newTag()
		entry, transport, err := d.listing(h, tag)
		if err != nil {
			h.Logger().Warn("mcp-ask: not adding askbridge's ask tool", "method", method, "err", err)
			return relay.Pass
		}
		listed := false
		v := relay.RewriteParams(func(params json.RawMessage) (json.RawMessage, error) {
			out, err := addServer(params, entry)
			listed = err == nil && out != nil
			return out, err
		})(m)
		if !listed {
			d.unlist(tag)
			h.Logger().Warn("mcp-ask: not adding askbridge's ask tool: the client lists a server of its name, or the params cannot be read", "method", method)
			return relay.Pass
		}
		if p.SessionID != "" {
			d.mapTag(tag, p.SessionID)
		}
		d.noteGemini(h)
		v.OnResponse = func(resp json.RawMessage) json.RawMessage {
			var r struct {
				Result *struct {
					SessionID string `json:"sessionId"`
				} `json:"result"`
			}
			json.Unmarshal(resp, &r)
			switch {
			case r.Result == nil: // an error: the session did not start
				d.mu.Lock()
				delete(d.tags, tag)
				d.mu.Unlock()
				d.unlist(tag)
			case r.Result.SessionID != "":
				d.mapTag(tag, r.Result.SessionID)
			}
			return nil
		}
		h.Logger().Info("mcp-ask: listed askbridge's ask tool", "method", method, "transport", transport, "session", p.SessionID)
		return v
	}
}

func (d *MCPAsk) mapTag(tag, session string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.tags == nil {
		d.tags, d.sessions = map[string]string{}, map[string]bool{}
	}
	d.tags[tag] = session
	d.sessions[session] = true
}

// ServerName is the name askbridge lists its server under: the same for
// every session of this process, and made of random letters no agent or
// model text can know before askbridge starts.
func (d *MCPAsk) ServerName() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.server == "" {
		b := make([]byte, MCPServerRandom)
		rand.Read(b)
		for i := range b {
			b[i] = 'g' + b[i]%20 // g..z: about 51 bits in all
		}
		d.server = MCPServerPrefix + string(b)
	}
	return d.server
}

// newTag is a tag no other session-creating request gets: it is all the
// server shows to say which session it belongs to. It has the shape of
// askbridge's generated tool call ids, which fixtures normalise.
func newTag() string {
	b := make([]byte, 8)
	rand.Read(b)
	return "askbridge-" + hex.EncodeToString(b)
}
