//go:build !linux

package nsinit

// Init is never started where there are no namespaces (package contain
// refuses first).
func Init([]string) int { return 2 }
