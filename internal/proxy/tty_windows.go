//go:build windows

package proxy

// deskTTY is the console, where the desk shows its pairing codes.
const deskTTY = "CONOUT$"
