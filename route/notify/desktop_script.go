package notify

import (
	"encoding/base64"
	"strings"
)

// The scripts of the notifiers that read one on stdin (stdinScript). They
// are built on every OS, so that every OS's tests check them.

// osascript reads its script on stdin when given none ("-"). AppleScript's
// string literals take backslash escapes: a quote or backslash of the text
// is escaped, and a line break written as \n.
var osascriptArgs = []string{"-"}

func osascriptScript(title, body string) string {
	return "display notification " + appleString(body) + ` with title "askbridge" subtitle ` + appleString(title) + "\n"
}

var appleEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", `\r`, "\n", `\n`, "\t", `\t`)

func appleString(s string) string { return `"` + appleEscaper.Replace(s) + `"` }

// powershell reads its script on stdin with "-Command -". A toast needs an
// application id: PowerShell's own, which Windows knows, so that askbridge
// registers nothing. The title and body are in the script as base64 of
// their UTF-8, which needs no quoting, and become XML text nodes: no text
// of a question is ever parsed as script or markup. One statement a line:
// PowerShell runs stdin line by line.
var powershellArgs = []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", "-"}

func toastScript(title, body string) string {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return `$ErrorActionPreference = 'Stop'
$title = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('` + b64(title) + `'))
$body = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('` + b64(body) + `'))
$null = [Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime]
$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)
$text = $xml.GetElementsByTagName('text')
$null = $text.Item(0).AppendChild($xml.CreateTextNode($title))
$null = $text.Item(1).AppendChild($xml.CreateTextNode($body))
$app = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\WindowsPowerShell\v1.0\powershell.exe'
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($app).Show([Windows.UI.Notifications.ToastNotification]::new($xml))
`
}
