package hub

// sameExecutable: macOS shows no other process's executable file to
// compare; the name tells (mayBeAskbridge).
func sameExecutable(int) bool { return false }
