package main

import (
	"log/slog"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/internal/proxy"
	"github.com/askbridge/askbridge/permission"
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
		Hub:       o.hub,
		Desk:      o.deskConfig(),
		Notify:    o.notifyOptions(logger),
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

// deskConfig is the desk the flags ask for.
func (o *proxyOptions) deskConfig() proxy.Desk {
	return proxy.Desk{Addr: o.desk, AllowRemote: o.deskAllowRemote, AllowRemoteHTTP: o.deskAllowRemoteHTTP,
		Custom: o.deskCustom, PublicURL: o.publicURL, LogFile: o.logFile != ""}
}
