package proxy

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/internal/askwire"
)

// injectAsk sets up the listing of `askbridge mcp` in the agent's sessions
// (--inject-ask): the server runs this very executable and reaches this
// process through the ask socket. Without either there is nothing to list.
func injectAsk(dialects []dialect.Dialect, mode string, sockEnv, argv []string, logger *slog.Logger) {
	var inject asktool.Inject
	inject.Set(mode) // checked with the other flags
	socket := ""
	for _, kv := range sockEnv {
		if v, ok := strings.CutPrefix(kv, askwire.SocketEnv+"="); ok {
			socket = v
		}
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if inject != asktool.InjectNever && (err != nil || socket == "") {
		logger.Warn("askbridge's ask tool will not be listed in sessions", "socket", socket, "err", err)
		return
	}
	asktool.SetInjection(dialects, inject, exe, socket, argv)
}
