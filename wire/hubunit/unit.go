package hubunit

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/askbridge/askbridge/route/notify"
)

// Make is the unit that starts `askbridge hub args...` (this executable)
// at login on this system, its page on listen (Text). env are the hub's secrets (NAME=value): they go
// to an environment file of mode 0600 that the unit reads (envFile, "" with
// none), never into the unit, whose command line every user of the machine
// reads once it runs; a webhook's topic itself goes to its own file
// (TopicToFile), which the environment names.
func Make(listen string, args, env []string) (units []File, envFile string, err error) {
	for i, kv := range env { // the topic itself goes to a file, the path to the unit
		if v, ok := strings.CutPrefix(kv, notify.URLEnv+"="); ok && err == nil {
			v, err = TopicToFile(v)
			env[i] = notify.URLEnv + "=" + v
		}
	}
	exe, eerr := os.Executable()
	if err == nil {
		err = eerr
	}
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	home, _ := os.UserHomeDir()
	if err == nil && len(env) > 0 && runtime.GOOS != "windows" {
		envFile, err = writeEnv(env)
	}
	if err == nil {
		dir, _ := os.UserConfigDir()
		units, err = Text(runtime.GOOS, exe, listen, args, home, dir, envFile)
	}
	return units, envFile, err
}

// Names are the variables of env ("NAME=value").
func Names(env []string) string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		out = append(out, name)
	}
	return strings.Join(out, ", ")
}

// envFilePath is where --print-unit keeps the unit's secrets: in askbridge's
// config folder, beside nothing another user can read.
func envFilePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("--print-unit: no folder for the unit's secrets: %w", err)
	}
	return filepath.Join(dir, "askbridge", "hub.env"), nil
}

// writeEnv writes env, one NAME='value' a line as both systemd's
// EnvironmentFile and sh read it, to envFilePath, mode 0600 in a folder
// of mode 0700, and returns its path.
func writeEnv(env []string) (string, error) {
	file, err := envFilePath()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# askbridge hub --print-unit: the hub's secrets, read by its unit. Keep it mode 0600.\n")
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if strings.ContainsAny(value, "'\n\r\\") {
			return "", fmt.Errorf("--print-unit: %s holds a quote, backslash or line break, which an environment file cannot hold as it is", name)
		}
		b.WriteString(name + "='" + value + "'\n")
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", fmt.Errorf("--print-unit: %w", err)
	}
	tmp := file + ".tmp"
	os.Remove(tmp)
	if err := os.WriteFile(tmp, []byte(b.String()), 0o600); err != nil {
		return "", fmt.Errorf("--print-unit: %w", err)
	}
	if err := os.Rename(tmp, file); err != nil {
		return "", fmt.Errorf("--print-unit: %w", err)
	}
	return file, nil
}

// launchdLabel names the hub's launchd agent (and its plist file).
const launchdLabel = "io.github.askbridge.hub"

// File is one file of the unit: its text, and where to save it.
type File struct {
	Path string
	Text string
}

// Text is what starts `exe hub args...` at login: on Linux a systemd user
// socket unit that holds the page's port (listen, --listen's address) and
// the service it hands the port to (socketUnits); on macOS a launchd agent
// whose log goes to home's Library/Logs. Windows has neither. envFile,
// when set, holds variables the hub needs (its secrets): systemd's
// EnvironmentFile; for launchd, which has none, sh reads it before it
// starts the hub. dir is the user's config folder, where systemd looks.
func Text(goos, exe, listen string, args []string, home, dir, envFile string) ([]File, error) {
	argv := append([]string{exe, "hub"}, args...)
	switch goos {
	case "windows":
		return nil, fmt.Errorf("--print-unit: Windows has no systemd or launchd; start `%s hub` from Task Scheduler at log on", exe)
	case "darwin":
		if envFile != "" {
			argv = append([]string{"/bin/sh", "-c", `set -a; . "$0"; set +a; exec "$@"`, envFile}, argv...)
		}
		// A macOS path, whatever OS builds it: slashes.
		plist := launchdPlist(argv, path.Join(home, "Library", "Logs", "askbridge-hub.log"))
		return []File{{Path: path.Join(home, "Library", "LaunchAgents", launchdLabel+".plist"), Text: plist}}, nil
	}
	socket, err := socketUnit(listen)
	if err != nil {
		return nil, err
	}
	units := path.Join(dir, "systemd", "user")
	return []File{
		{Path: path.Join(units, unitName+".socket"), Text: socket},
		{Path: path.Join(units, unitName+".service"), Text: serviceUnit(argv, envFile)},
	}, nil
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
	<string>` + launchdLabel + `</string>
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
