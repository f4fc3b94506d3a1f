package asktool

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"github.com/askbridge/askbridge/adapter/dialect"
)

// Inject says when askbridge lists its ask tool in an agent's sessions.
type Inject int

const (
	// InjectAuto, the zero value, lists it for agents without a question
	// dialect of their own.
	InjectAuto Inject = iota
	// InjectAlways lists it for every agent.
	InjectAlways
	// InjectNever never lists it.
	InjectNever
)

// String is the flag spelling.
func (i Inject) String() string {
	switch i {
	case InjectAlways:
		return "always"
	case InjectNever:
		return "never"
	}
	return "auto"
}

// Set parses the flag spelling, so an Inject is a flag.Value.
func (i *Inject) Set(s string) error {
	switch s {
	case "auto", "":
		*i = InjectAuto
	case "always":
		*i = InjectAlways
	case "never":
		*i = InjectNever
	default:
		return fmt.Errorf("%q: want auto, always or never", s)
	}
	return nil
}

// agentIdentity is the part of initialize's response MCPAsk reads.
type agentIdentity struct {
	AgentInfo struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	} `json:"agentInfo"`
	AgentCapabilities struct {
		SessionCapabilities struct {
			Fork   *struct{} `json:"fork"`
			Resume *struct{} `json:"resume"`
		} `json:"sessionCapabilities"`
		McpCapabilities struct {
			HTTP bool `json:"http"`
		} `json:"mcpCapabilities"`
	} `json:"agentCapabilities"`
	v2Identity // ACP v2 names them info and capabilities (servers.go)
	known      bool
}

// ownDialects are the agents that ask in a way askbridge already handles
// (forms, Qwen's permission request, OpenCode's server, Cursor's
// extensions, Kimi Code's form): auto gives them no second question tool.
var ownDialects = []string{"claude", "qwen", "opencode", "codex", "cursor", "devin", "kimi"}

// injects decides for one session-creating request.
func (d *MCPAsk) injects(h dialect.Host, method string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.Inject == InjectNever || d.Command == "" || d.Socket == "" {
		return false
	}
	caps := d.agent.AgentCapabilities.SessionCapabilities
	if method == acp.AgentMethodSessionFork && caps.Fork == nil || method == acp.AgentMethodSessionResume && caps.Resume == nil {
		return false // not a method the agent advertised
	}
	if d.Inject == InjectAlways {
		return true
	}
	for _, w := range d.agentWords() {
		for _, own := range ownDialects {
			if w == own && !d.askOverHTTP() {
				return false
			}
		}
	}
	return true
}

// agentWords are the words that name the agent: its agentInfo, and its
// program (with the package or script a runner such as npx or node starts).
// Arguments further on are not read: `kiro-cli acp --model claude-sonnet`
// is not Claude.
func (d *MCPAsk) agentWords() []string {
	names := []string{d.agent.AgentInfo.Name, d.agent.AgentInfo.Title, d.agent.Info.Name, d.agent.Info.Title}
	if len(d.Argv) > 0 {
		names = append(names, filepath.Base(d.Argv[0]))
		if filepath.Base(d.Argv[0]) == "agent" && slices.Contains(d.Argv[1:], "acp") {
			names = append(names, "cursor") // Cursor's CLI is `agent acp`
		}
		switch strings.TrimSuffix(filepath.Base(d.Argv[0]), ".exe") {
		case "node", "npx", "bunx", "bun", "deno", "pnpm", "pnpx", "yarn", "uvx", "pipx", "python", "python3", "env":
			for _, a := range d.Argv[1:] {
				if !strings.HasPrefix(a, "-") && a != "run" && a != "exec" && a != "dlx" {
					names = append(names, a)
					break
				}
			}
		}
	}
	return strings.FieldsFunc(strings.ToLower(strings.Join(names, " ")), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
}

// isGemini reports whether the agent is Gemini CLI.
func (d *MCPAsk) isGemini() bool {
	for _, w := range d.agentWords() {
		if w == "gemini" {
			return true
		}
	}
	return false
}

// noteGemini says once, when listing the tool for Gemini CLI, what makes
// Gemini drop it without a word.
func (d *MCPAsk) noteGemini(h dialect.Host) {
	d.mu.Lock()
	first := !d.noted && d.isGemini()
	d.noted = d.noted || first
	d.mu.Unlock()
	if !first {
		return
	}
	const note = "mcp-ask: Gemini CLI starts askbridge's ask tool only in a folder it trusts; elsewhere it drops the tool silently and the model cannot ask"
	if os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		h.Logger().Info(note + " (GEMINI_CLI_TRUST_WORKSPACE=true is set: every folder is trusted)")
		return
	}
	h.Logger().Warn(note + ": trust the folder in Gemini CLI (/permissions, or ~/.gemini/trustedFolders.json), or start it with GEMINI_CLI_TRUST_WORKSPACE=true")
}
