package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/askbridge/askbridge/adapter"
)

// injectAsk sets up the listing of `askbridge mcp` in the agent's sessions
// (--inject-ask): the server runs this very executable and reaches this
// process through the ask socket. Without either there is nothing to list.
func injectAsk(dialects []adapter.Dialect, mode string, sockEnv, argv []string, logger *slog.Logger) {
	var inject adapter.Inject
	inject.Set(mode) // checked with the other flags
	socket := ""
	for _, kv := range sockEnv {
		if v, ok := strings.CutPrefix(kv, adapter.SocketEnv+"="); ok {
			socket = v
		}
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if inject != adapter.InjectNever && (err != nil || socket == "") {
		logger.Warn("askbridge's ask tool will not be listed in sessions", "socket", socket, "err", err)
		return
	}
	adapter.SetInjection(dialects, inject, exe, socket, argv)
}
