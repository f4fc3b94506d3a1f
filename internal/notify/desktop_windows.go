package notify

import (
	"encoding/base64"
	"encoding/binary"
	"unicode/utf16"
)

// nativeDesktop on Windows: a toast, raised by Windows PowerShell 5.1
// (in every Windows 10 and 11) through the WinRT notification API. A toast
// needs an application id: PowerShell's own, which Windows knows, so that
// askbridge registers nothing. The title and body reach the script in
// environment variables and become XML text nodes, so no text of a
// question is ever parsed as script or markup.
var nativeDesktop = desktopCmd{name: "powershell", args: toastArgs, env: toastEnv}

const toastScript = `$ErrorActionPreference = 'Stop'
$null = [Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime]
$xml = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02)
$text = $xml.GetElementsByTagName('text')
$null = $text.Item(0).AppendChild($xml.CreateTextNode($env:ASKBRIDGE_TOAST_TITLE))
$null = $text.Item(1).AppendChild($xml.CreateTextNode($env:ASKBRIDGE_TOAST_BODY))
$app = '{1AC14E77-02E7-4E5D-B744-2EB1AE5198B7}\WindowsPowerShell\v1.0\powershell.exe'
[Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($app).Show([Windows.UI.Notifications.ToastNotification]::new($xml))`

// toastArgs passes the script encoded (-EncodedCommand: UTF-16LE in
// base64), so that the command line needs no quoting either.
func toastArgs(string, string) []string {
	return []string{"-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-EncodedCommand", encodedToastScript}
}

var encodedToastScript = func() string {
	u := utf16.Encode([]rune(toastScript))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		binary.LittleEndian.PutUint16(b[2*i:], c)
	}
	return base64.StdEncoding.EncodeToString(b)
}()

func toastEnv(title, body string) []string {
	return []string{"ASKBRIDGE_TOAST_TITLE=" + title, "ASKBRIDGE_TOAST_BODY=" + body}
}
