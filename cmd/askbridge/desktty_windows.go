//go:build windows

package main

// deskTTY is the console, where the desk shows its pairing codes.
const deskTTY = "CONOUT$"
