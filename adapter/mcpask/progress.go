package mcpask

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP hosts end a tool call they have waited on for a while: Copilot CLI
// 1.0.102 after about 180 s, Gemini CLI 0.61.0 after 600 s, hosts on the
// MCP TypeScript SDK's defaults after 60 s. A person answering from a phone
// takes longer. The spec's remedy is progress: a host that sent a
// progressToken may restart its clock on each notifications/progress
// (the TypeScript SDK's resetTimeoutOnProgress). So while nobody has
// answered, the tool sends one every ProgressEvery, for at most
// ProgressFor; past that, or where a host ends the call anyway, the answer
// reaches the model later, with the user's next prompt (the adapter's late
// answers).
const (
	// ProgressEvery is a quarter of the shortest timeout seen (the SDK's
	// 60 s): a host that restarts its clock on progress never reaches it.
	ProgressEvery = 15 * time.Second
	// ProgressFor is the ceiling: a question unanswered after an hour is
	// not kept alive for ever by a machine; the host's own timeout may then
	// end the call, and the answer still arrives with the next prompt.
	ProgressFor = time.Hour
)

// ProgressEnv carries --mcp-progress to `askbridge mcp`: the ceiling as a
// duration, 0 for none.
const ProgressEnv = "ASKBRIDGE_MCP_PROGRESS"

// progressMessage is what a host that shows progress shows.
const progressMessage = "waiting for the user's answer"

// keepAlive sends progress for the call req until ctx ends or the ceiling
// is reached, when the host gave a progressToken; the returned func stops
// it and waits for it.
func keepAlive(ctx context.Context, req *mcp.CallToolRequest, every, ceiling time.Duration) func() {
	token := req.Params.GetProgressToken()
	if token == nil || req.Session == nil || ceiling <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		stop := time.NewTimer(ceiling)
		defer stop.Stop()
		for n := 1; ; n++ {
			select {
			case <-ctx.Done():
				return
			case <-stop.C:
				return
			case <-tick.C:
			}
			// Progress must increase; it counts the notifications, as the
			// total is unknown.
			req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(n), Message: progressMessage})
		}
	}()
	return func() { cancel(); <-done }
}
