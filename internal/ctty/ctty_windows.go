package ctty

// Has is false: Windows has no controlling terminal to type into (a
// console process group of its own is the agent's there).
func Has() bool { return false }
