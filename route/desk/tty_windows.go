//go:build windows

package desk

// deskTTY is the console, where the desk shows its pairing codes.
const deskTTY = "CONOUT$"
