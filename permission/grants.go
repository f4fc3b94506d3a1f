package permission

import (
	"encoding/json"
	"fmt"
	"strings"

	acp "github.com/coder/acp-go-sdk"
)

// What an approval grants. Agents say on a lasting option what it will
// change from then on: claude-agent-acp and codex-acp put
// `_meta.permission = {version, title?, description?, changes:[…]}` on an
// option, each change an object with a description (a rule added, a
// folder allowed, a mode set). Every route shows it, so that "Always
// allow" says what it allows, and a lasting option looks unlike a one-time
// one.

// Grant is what an option of an approval grants, as its agent says.
type Grant struct {
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Changes     []string `json:"changes,omitempty"` // one line each
	Lasting     bool     `json:"lasting,omitempty"` // allow_always, reject_always
}

// Grant reads what o grants from its kind and _meta.permission.
func (o ApprovalOption) Grant() Grant {
	g := Grant{Lasting: o.Lasting(), Description: o.Description}
	var meta struct {
		Permission *struct {
			Title       string            `json:"title"`
			Description string            `json:"description"`
			Changes     []json.RawMessage `json:"changes"`
		} `json:"permission"`
	}
	if len(o.Meta) == 0 || json.Unmarshal(o.Meta, &meta) != nil || meta.Permission == nil {
		return g
	}
	p := meta.Permission
	g.Title = p.Title
	if p.Description != "" {
		g.Description = p.Description
	}
	for _, c := range p.Changes {
		if line := changeLine(c); line != "" {
			g.Changes = append(g.Changes, line)
		}
	}
	return g
}

// changeLine is one change as a line: its description, else what it names.
func changeLine(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return clean(s)
	}
	var c map[string]any
	if json.Unmarshal(raw, &c) != nil {
		return ""
	}
	for _, k := range []string{"description", "title", "summary"} {
		if v, ok := c[k].(string); ok && strings.TrimSpace(v) != "" {
			return clean(v)
		}
	}
	var parts []string
	for _, k := range []string{"type", "kind", "rule", "toolName", "ruleContent", "path", "directory", "mode", "destination"} {
		if v, ok := c[k]; ok {
			parts = append(parts, fmt.Sprintf("%s %v", k, v))
		}
	}
	if len(parts) == 0 {
		b, _ := json.Marshal(c)
		return clean(string(b))
	}
	return clean(strings.Join(parts, ", "))
}

// clean keeps an agent's line to one line of text.
func clean(s string) string {
	s, _ = Typed(strings.Join(strings.Fields(s), " "))
	return s
}

// Text is the grant in words, for an option's description on every
// route: whether it lasts, and what it changes.
func (g Grant) Text(kind acp.PermissionOptionKind) string {
	var parts []string
	switch {
	case kind == acp.PermissionOptionKindAllowAlways:
		parts = append(parts, "lasting: the agent will not ask again")
	case kind == acp.PermissionOptionKindRejectAlways:
		parts = append(parts, "lasting: refused from now on")
	case g.Lasting:
		parts = append(parts, "lasting")
	}
	if g.Title != "" {
		parts = append(parts, g.Title)
	}
	if g.Description != "" {
		parts = append(parts, g.Description)
	}
	if len(g.Changes) > 0 {
		parts = append(parts, "changes: "+strings.Join(g.Changes, "; "))
	}
	return strings.Join(parts, " — ")
}
