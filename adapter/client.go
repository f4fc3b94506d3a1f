package adapter

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/askbridge/askbridge/adapter/relay"
)

// Client is what askbridge knows of an ACP client, as it knows agents by
// their dialect: found by the name initialize's clientInfo gives, it says
// how the client shows a question. --render overrides it.
type Client struct {
	// Name is clientInfo.name as the client sends it (matched without
	// regard to case).
	Name string
	// Render is how questions reach it: RenderYesNo for a client that can
	// only say yes or no to a permission request, RenderAuto to pass forms
	// to it when its initialize says it renders them.
	Render Render
	// Shows says how the client shows a permission request, and where that
	// was seen (docs/clients.md says more).
	Shows string
	// CancelsFrom is the first version (clientInfo.version) that takes
	// $/cancel_request; earlier ones, and one that names no version, are
	// never sent it. "" means every version takes it.
	CancelsFrom string
}

// Clients is the table of the clients askbridge knows. A client not listed
// gets RenderAuto: forms when it says it renders them, else a permission
// request per question with a button per option.
func Clients() []Client {
	return []Client{
		{Name: "acpx", Render: RenderYesNo,
			Shows: `"[permission] Allow <title> [<kind>]? (y/N)": y picks the first allow option, n the first reject option (none: cancelled); no question text, no option names (acpx source and live test)`,
			// acpx before 0.12 is built on an ACP SDK before 0.29, which
			// prints "Method not found" for $/cancel_request (acpx 0.1.15,
			// what npm installs on Node 20, sends version "0.1.0").
			CancelsFrom: "0.12.0"},
		{Name: "CodeCompanion.nvim", Render: RenderYesNo,
			Shows: "each option labelled by its kind (allow_once: Accept), so several allow_once options read the same (CodeCompanion source)"},
	}
}

// clientNamed is the table's entry for a clientInfo name.
func clientNamed(name string) (Client, bool) {
	for _, c := range Clients() {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return Client{}, false
}

// TakesCancelRequest says whether the client's version takes
// $/cancel_request (CancelsFrom).
func (c Client) TakesCancelRequest(version string) bool {
	if c.CancelsFrom == "" {
		return true
	}
	have, ok := versionNumbers(version)
	want, _ := versionNumbers(c.CancelsFrom)
	if !ok {
		return false
	}
	for i := range want {
		switch {
		case i >= len(have) || have[i] < want[i]:
			return false
		case have[i] > want[i]:
			return true
		}
	}
	return true
}

// versionNumbers reads "1.2.3" (a leading "v" and any "-pre" or "+build"
// tail aside) as its numbers.
func versionNumbers(v string) ([]int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	if v == "" {
		return nil, false
	}
	var out []int
	for _, part := range strings.Split(v, ".") {
		n, err := strconv.Atoi(part)
		if err != nil || n < 0 {
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}

// cancelToClient passes the agent's $/cancel_request of a request the
// client was forwarded on to the client, unless the client takes none: an
// old acpx would print "Method not found" for it.
func (b *Bridge) cancelToClient(id json.RawMessage) relay.Verdict {
	if b.relay.Client.TakesCancelRequest() {
		return relay.Pass
	}
	b.logger.Debug("the client takes no $/cancel_request: the agent's is not passed on", "requestId", string(id))
	return relay.Verdict{Take: true}
}
