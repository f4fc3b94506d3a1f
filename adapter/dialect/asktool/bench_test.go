package asktool

import (
	"testing"

	"github.com/askbridge/askbridge/adapter/dialect/dialecttest"
	"github.com/askbridge/askbridge/adapter/relay"
)

// BenchmarkMCPAskListing is the work listing the tool adds to one
// session/new, alone: the rewrite of the request and the reading of its
// response, without pipes or scheduling.
func BenchmarkMCPAskListing(b *testing.B) {
	d := &MCPAsk{Config: Config{Inject: InjectAuto, Command: "/usr/local/bin/askbridge", Socket: "/tmp/askbridge-1/ask.sock", Argv: []string{"gemini", "--acp"}}}
	h := dialecttest.Host{}
	hook := d.onSessionStart(h, "session/new")
	req := &relay.Message{Method: "session/new", ID: []byte("1"),
		Raw: []byte(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/home/me/project","mcpServers":[]}}`)}
	resp := []byte(`{"jsonrpc":"2.0","id":1,"result":{"sessionId":"sess-1"}}`)
	b.ReportAllocs()
	for b.Loop() {
		v := hook(req)
		if v.Replace == nil {
			b.Fatal("not listed")
		}
		v.OnResponse(resp)
	}
}
