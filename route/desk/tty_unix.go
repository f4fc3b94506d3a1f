//go:build !windows

package desk

// deskTTY is the controlling terminal, where the desk shows its pairing
// codes.
const deskTTY = "/dev/tty"
