package asktool_test

import (
	"bufio"
	"fmt"
	"io"
	"testing"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/adapter/dialect/asktool"
	"github.com/askbridge/askbridge/adapter/relay"
)

// BenchmarkMCPAskSessionNew is a session/new that carries no server of the
// client's through the bridge and back, with the MCP ask tool listed
// (Gemini, auto) and without (never): the difference is what listing it
// costs a session/new. Gemini CLI itself takes about 160 ms to answer one.
func BenchmarkMCPAskSessionNew(b *testing.B) {
	for _, c := range []struct {
		name string
		mode asktool.Inject
	}{{"never", asktool.InjectNever}, {"auto-gemini", asktool.InjectAuto}} {
		b.Run(c.name, func(b *testing.B) {
			dialects := adapter.DialectsWith(adapter.DialectConfig{AskTool: asktool.Config{Inject: c.mode, Command: "/usr/local/bin/askbridge", Socket: "/tmp/askbridge-1/ask.sock", Argv: []string{"gemini", "--acp"}}})
			bridge := adapter.NewBridge(adapter.Options{Dialects: dialects})
			cInR, cInW := io.Pipe()
			cOutR, cOutW := io.Pipe()
			aInR, aInW := io.Pipe()
			aOutR, aOutW := io.Pipe()
			r := relay.New(relay.Config{ClientIn: cInR, ClientOut: cOutW, AgentIn: aInR, AgentOut: aOutW})
			cleanup := bridge.Setup(r)
			r.Start()
			client, agent := bufio.NewReader(cOutR), bufio.NewReader(aOutR)
			roundTrip := func(req, resp string) string {
				io.WriteString(cInW, req)
				got, err := agent.ReadString('\n')
				if err != nil {
					b.Fatal(err)
				}
				io.WriteString(aInW, resp)
				if _, err := client.ReadString('\n'); err != nil {
					b.Fatal(err)
				}
				return got
			}
			roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`+"\n",
				`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1,"agentInfo":{"name":"gemini-cli","version":"0.61.0"}}}`+"\n")
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				got := roundTrip(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"session/new","params":{"cwd":"/home/me/project","mcpServers":[]}}`+"\n", i+1),
					fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"sessionId":"sess-%d"}}`+"\n", i+1, i))
				if i == 0 && (c.mode == asktool.InjectNever) == (len(got) > 120) {
					b.Fatalf("listed=%v for mode %s: %s", len(got) > 120, c.mode, got)
				}
			}
			b.StopTimer()
			cInW.Close()
			aInW.Close()
			<-r.ClientDone()
			<-r.AgentDone()
			cleanup()
			cOutW.Close()
			aOutW.Close()
		})
	}
}
