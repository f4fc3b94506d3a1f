package main

import (
	"fmt"
	"io"

	"github.com/askbridge/askbridge/wire/hubctl"
)

// hubDeviceCommand is `askbridge hub pair`, `hub devices`, `hub revoke
// ID` or `hub key` (nil for another word): they ask the running hub over its socket.
// A switch, not a map: package main builds nothing at init.
func hubDeviceCommand(name string) func(args []string, stdout, stderr io.Writer) int {
	switch name {
	case "pair":
		return hubPair
	case "devices":
		return hubDevices
	case "revoke":
		return hubRevoke
	case "log":
		return hubLog
	case "key":
		return hubKey
	}
	return nil
}

func hubPair(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "askbridge hub pair: takes no argument")
		return 2
	}
	if hubctl.RefusedInside("askbridge hub pair", stderr) {
		return 1
	}
	return done("askbridge hub pair", hubctl.Pair(stdout), stderr)
}

func hubDevices(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "askbridge hub devices: takes no argument")
		return 2
	}
	if hubctl.RefusedInside("askbridge hub devices", stderr) {
		return 1
	}
	return done("askbridge hub devices", hubctl.Devices(stdout), stderr)
}

func hubRevoke(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "askbridge hub revoke: give the device's ID (askbridge hub devices lists them)")
		return 2
	}
	if hubctl.RefusedInside("askbridge hub revoke", stderr) {
		return 1
	}
	return done("askbridge hub revoke", hubctl.Revoke(stdout, args[0]), stderr)
}

// done is a hub command's exit: 0, or 1 with err on stderr.
func done(cmd string, err error, stderr io.Writer) int {
	if err != nil {
		fmt.Fprintln(stderr, cmd+":", err)
		return 1
	}
	return 0
}
