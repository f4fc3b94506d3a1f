package main

import (
	"log/slog"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/permission"
	"github.com/askbridge/askbridge/route"
	"github.com/askbridge/askbridge/route/desk"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/askbridge/askbridge/wire/proxy"
)

// config is the proxy's configuration as the flags say it (checked), for
// the agent's command.
func (o *proxyOptions) config(command []string, limits permission.Limits, logger *slog.Logger) proxy.Config {
	var render adapter.Render
	var onTimeout adapter.OnTimeout
	render.Set(o.render) // checked with the other flags
	onTimeout.Set(o.onTimeout)
	return proxy.Config{
		Command:   command,
		AgentKind: o.agentKind,
		Routes:    o.routes(logger),
		Bridge: adapter.Options{
			Advertise:       o.advertise,
			Render:          render,
			Routing:         adapter.Routing{Questions: o.questions, MinAnswerTime: o.minAnswerTime},
			QuestionTimeout: o.questionTimeout,
			OnTimeout:       onTimeout,
			Approvals:       o.approvals,
			ApprovalTimeout: o.approvalTimeout,
			MaxRounds:       o.maxRounds,
			Limits:          limits,
			LateAnswers:     o.lateAnswers,
			Notes:           proxy.OpenNotes(logger),
		},
		InjectAsk:   o.injectAsk,
		MCPProgress: o.mcpProgress,
		Contain:     o.contain,
		Grace:       o.grace,
		MaxLine:     o.maxLine,
		Logger:      logger,
		LogFile:     o.logFile != "",
	}
}

// routes is the table of answer routes besides the editor, as the flags
// set them, in the order they start: the desk before the notifiers, whose
// buttons post to it. A new route is one line here (docs/development.md).
func (o *proxyOptions) routes(logger *slog.Logger) []route.Route {
	return []route.Route{
		desk.Route{Addr: o.desk, AllowRemote: o.deskAllowRemote, AllowRemoteHTTP: o.deskAllowRemoteHTTP, Custom: o.deskCustom, PublicURL: o.publicURL},
		hub.Route{Socket: o.hub},
		o.notifyRoute(logger),
	}
}
