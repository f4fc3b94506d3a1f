package hubunit

import (
	"cmp"
	"fmt"
	"net"
	"strings"
)

// unitName names the hub's systemd units: the socket activates the service
// of its own name, which gets the socket's fds whoever starts it.
const unitName = "askbridge-hub"

const documentation = "Documentation=https://github.com/askbridge/askbridge/blob/main/docs/desk-and-hub.md#start-it-once-at-login\n"

// socketUnit holds the page's port in the user's service manager, which
// keeps it bound while the hub restarts, crashes or is killed: no other
// user can take it and serve a page on the hub's origin meanwhile. A
// loopback --listen is both loopback families, every name localhost
// resolves to, as the hub itself binds them; the hub checks it got that.
func socketUnit(listen string) (string, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "", fmt.Errorf("--print-unit: --listen %q: want host:port", listen)
	}
	if port == "0" || port == "" {
		return "", fmt.Errorf("--print-unit: --listen %s: the unit holds one port for the hub, so give it a fixed one (e.g. %s)", listen, net.JoinHostPort(cmp.Or(host, "127.0.0.1"), "7683"))
	}
	var streams []string
	only := ""
	switch ip := net.ParseIP(host); {
	case host == "localhost" || ip != nil && ip.IsLoopback():
		streams = []string{net.JoinHostPort("127.0.0.1", port), net.JoinHostPort("::1", port)}
		only = "BindIPv6Only=ipv6-only\n" // [::1] is itself, as the hub binds it
	case host == "" || ip != nil && ip.Equal(net.IPv6unspecified):
		streams = []string{net.JoinHostPort("::", port)}
		only = "BindIPv6Only=both\n" // every interface, both families, as Go's listener
	case ip == nil:
		return "", fmt.Errorf("--print-unit: --listen %s names a host: the socket unit needs its IP address", listen)
	default:
		streams = []string{net.JoinHostPort(ip.String(), port)}
	}
	var b strings.Builder
	b.WriteString("[Unit]\nDescription=askbridge hub's page port, held while the hub restarts\n" + documentation + "\n[Socket]\n")
	for _, s := range streams {
		b.WriteString("ListenStream=" + s + "\n")
	}
	b.WriteString(only + "FileDescriptorName=" + unitName + "\n\n[Install]\nWantedBy=sockets.target\n")
	return b.String(), nil
}

// serviceUnit runs the hub at login on the socket unit's fds (it starts at
// login, not at the page's first visit: the askbridges report on its Unix
// socket), restarted when it fails.
func serviceUnit(argv []string, envFile string) string {
	environment := ""
	if envFile != "" {
		environment = "EnvironmentFile=" + strings.ReplaceAll(envFile, "%", "%%") + "\n"
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = systemdQuote(a)
	}
	return `[Unit]
Description=askbridge hub: one page for every agent
` + documentation + `Requires=` + unitName + `.socket
After=` + unitName + `.socket

[Service]
` + environment + `ExecStart=` + strings.Join(quoted, " ") + `
Restart=on-failure
RestartSec=2

[Install]
WantedBy=default.target
Also=` + unitName + `.socket
`
}

// systemdQuote is a as one word of ExecStart: double-quoted when it needs
// it, with systemd's specifiers (%) and variables ($) taken literally.
func systemdQuote(a string) string {
	a = strings.NewReplacer("%", "%%", "$", "$$").Replace(a)
	if a != "" && !strings.ContainsAny(a, " \t\n\"'\\;") {
		return a
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(a) + `"`
}
