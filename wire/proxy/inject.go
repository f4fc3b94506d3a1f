package proxy

import (
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/mcpask"
)

// askTool is the MCP ask tool's listing in the agent's sessions as
// --inject-ask and --mcp-progress say it: the server runs this very
// executable and reaches this process through the ask socket. Without
// either there is nothing to list.
func askTool(mode string, progress time.Duration, socket string, argv []string, logger *slog.Logger) asktool.Config {
	var inject asktool.Inject
	inject.Set(mode) // checked with the other flags
	c := asktool.Config{Inject: inject, Argv: argv, Progress: mcpask.NoProgress(progress)}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if inject != asktool.InjectNever && (err != nil || socket == "") {
		logger.Warn("askbridge's ask tool will not be listed in sessions", "socket", socket, "err", err)
		return c
	}
	c.Command, c.Socket = exe, socket
	return c
}
