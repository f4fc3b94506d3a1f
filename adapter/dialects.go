package adapter

import (
	"errors"
	"io"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/approvals"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/dialect/claude"
	"github.com/askbridge/askbridge/adapter/dialect/codex"
	"github.com/askbridge/askbridge/adapter/dialect/cursor"
	"github.com/askbridge/askbridge/adapter/dialect/grok"
	"github.com/askbridge/askbridge/adapter/dialect/kiro"
	"github.com/askbridge/askbridge/adapter/dialect/opencode"
	"github.com/askbridge/askbridge/adapter/dialect/qwen"
	"github.com/askbridge/askbridge/adapter/dialect/urlmode"
	"github.com/askbridge/askbridge/adapter/relay"
)

// DialectConfig is what the flags say of the dialects, given when their
// table is built.
type DialectConfig struct {
	AskTool asktool.Config // the MCP ask tool's listing (--inject-ask, --mcp-progress)
}

// Dialects is the table with every dialect as it is by default: the
// table of tests and fixtures that configure nothing.
func Dialects() []dialect.Dialect { return DialectsWith(DialectConfig{}) }

// DialectsWith is the table of the dialects askbridge speaks, configured
// by c, fresh for one bridge: one line each, and the only place the bridge
// names one. Order matters where dialects share a method: the first to
// claim a message wins.
func DialectsWith(c DialectConfig) []dialect.Dialect {
	return []dialect.Dialect{
		&urlmode.Elicitation{}, // before the forms: a URL is never asked as one
		&codex.Dialect{},
		&claude.Elicitation{},
		&qwen.Dialect{},
		&opencode.Dialect{},
		&cursor.Dialect{},
		&kiro.Dialect{},
		&grok.Dialect{},
		&asktool.MCPAsk{Config: c.AskTool}, // before Ask: it takes the asks that carry an mcpTag
		&asktool.Ask{},
		&approvals.Dialect{}, // last: what no dialect above claimed
	}
}

// installDialects puts the dialects on the relay in table order: every
// Rewriter's rewrites first, then every dialect's hooks.
func (b *Bridge) installDialects() {
	for _, d := range b.dialects {
		if rw, ok := d.(dialect.Rewriter); ok {
			for _, w := range rw.Rewrites(b) {
				err := checkHook(w.Hook)
				if err == nil && w.Intercept == nil {
					err = errors.New("no interceptor")
				}
				if err != nil {
					b.logger.Error(d.Name()+": left out a rewrite that cannot work", "method", w.Method, "err", err)
					continue
				}
				b.install(w.Hook, w.Intercept)
			}
		}
	}
	for _, d := range b.dialects {
		for _, h := range d.Hooks() {
			b.install(h, b.intercept(d))
		}
	}
}

// install puts fn on the relay for h's method and side.
func (b *Bridge) install(h dialect.Hook, fn relay.Interceptor) {
	switch {
	case h.From == dialect.FromClient:
		b.relay.FromClient(h.Method, fn)
	case h.Method == relay.UpdateMethod && len(h.Updates) > 0:
		b.relay.FromAgentUpdates(fn, h.Updates...)
	default:
		b.relay.FromAgent(h.Method, fn)
	}
}

// Launch lets the dialect that starts argv's agent change how it starts:
// kind "auto" asks each Launcher whether it recognises argv, "generic"
// none, and any other kind names the dialect to use. It returns the
// command and the environment to add.
func Launch(dialects []dialect.Dialect, argv []string, kind string) ([]string, []string, error) {
	for _, d := range dialects {
		l, ok := d.(dialect.Launcher)
		if !ok || kind == KindGeneric {
			continue
		}
		if kind == d.Name() || kind == KindAuto && l.Recognise(argv) {
			return l.Launch(argv)
		}
	}
	return argv, nil, nil
}

// closeDialects closes the dialects that hold something open: a server of
// their own (MCPAsk's HTTP one).
func (b *Bridge) closeDialects() {
	for _, d := range b.dialects {
		if c, ok := d.(io.Closer); ok {
			c.Close()
		}
	}
}
