package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"path"
	"strings"
)

// hubLaunchdLabel names the hub's launchd agent (and its plist file).
const hubLaunchdLabel = "io.github.askbridge.hub"

// hubUnit is the text that starts `exe hub args...` at login: a systemd
// user unit, or on macOS a launchd agent whose log goes to home's
// Library/Logs. Windows has neither.
func hubUnit(goos, exe string, args []string, home string) (string, error) {
	argv := append([]string{exe, "hub"}, args...)
	switch goos {
	case "windows":
		return "", fmt.Errorf("--print-unit: Windows has no systemd or launchd; start `%s hub` from Task Scheduler at log on", exe)
	case "darwin":
		// A macOS path, whatever OS builds it: slashes.
		return launchdPlist(argv, path.Join(home, "Library", "Logs", "askbridge-hub.log")), nil
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = systemdQuote(a)
	}
	return `[Unit]
Description=askbridge hub: one inbox for every agent
Documentation=https://github.com/askbridge/askbridge#one-inbox-for-every-agent

[Service]
ExecStart=` + strings.Join(quoted, " ") + `
Restart=on-failure
RestartSec=2

[Install]
WantedBy=default.target
`, nil
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

func launchdPlist(argv []string, logPath string) string {
	var b bytes.Buffer
	esc := func(s string) string {
		var e bytes.Buffer
		xml.EscapeText(&e, []byte(s))
		return e.String()
	}
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + hubLaunchdLabel + `</string>
	<key>ProgramArguments</key>
	<array>
`)
	for _, a := range argv {
		b.WriteString("\t\t<string>" + esc(a) + "</string>\n")
	}
	b.WriteString(`	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>KeepAlive</key>
	<dict>
		<key>SuccessfulExit</key>
		<false/>
	</dict>
	<key>StandardErrorPath</key>
	<string>` + esc(logPath) + `</string>
</dict>
</plist>
`)
	return b.String()
}
