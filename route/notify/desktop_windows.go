package notify

// nativeDesktop on Windows: a toast, raised by Windows PowerShell 5.1 (in
// every Windows 10 and 11) through the WinRT notification API, its script
// on stdin.
func nativeDesktop() (shower, error) { return findScript("powershell", powershellArgs, toastScript) }
