package proxy

import (
	"time"

	"github.com/askbridge/askbridge/adapter/dialect"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/internal/mcpask"
)

// setProgress hands --mcp-progress to the MCP ask tool.
func setProgress(dialects []dialect.Dialect, every time.Duration) {
	asktool.SetProgress(dialects, mcpask.NoProgress(every))
}
