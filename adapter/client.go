package adapter

import "strings"

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
}

// Clients is the table of the clients askbridge knows. A client not listed
// gets RenderAuto: forms when it says it renders them, else a permission
// request per question with a button per option.
func Clients() []Client {
	return []Client{
		{Name: "acpx", Render: RenderYesNo,
			Shows: `"[permission] Allow <title> [<kind>]? (y/N)": y picks the first allow option, n the first reject option (none: cancelled); no question text, no option names (acpx source and live test)`},
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
