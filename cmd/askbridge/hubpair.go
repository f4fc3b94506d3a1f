package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/askbridge/askbridge/internal/hub"
	"github.com/askbridge/askbridge/internal/hubserve"
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := hub.NewCode(ctx, hub.SocketPath())
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub pair:", err)
		return 1
	}
	fmt.Fprintf(stdout, "Pairing code %s, good once until %s: type it at %s, or open %s\n",
		c.Code, c.Until.Local().Format("15:04:05"), hubserve.PageOf(c.URL), c.URL)
	return 0
}

func hubDevices(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "askbridge hub devices: takes no argument")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	list, err := hub.Devices(ctx, hub.SocketPath())
	if err != nil {
		fmt.Fprintln(stderr, "askbridge hub devices:", err)
		return 1
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No device is paired: askbridge hub pair prints a code to pair one.")
	}
	for _, d := range list {
		how := "questions only"
		switch {
		case d.Passkey != nil:
			how = "passkey (" + d.RPID + ")"
		case d.NoPasskeyApprovals:
			how = "approves without a passkey"
		}
		fmt.Fprintf(stdout, "%s  %-24s  paired %s  %s\n", d.ID, d.Name, d.Paired.Local().Format("2006-01-02 15:04"), how)
	}
	return 0
}

func hubRevoke(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "askbridge hub revoke: give the device's ID (askbridge hub devices lists them)")
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hub.Revoke(ctx, hub.SocketPath(), args[0]); err != nil {
		fmt.Fprintln(stderr, "askbridge hub revoke:", err)
		return 1
	}
	fmt.Fprintf(stdout, "Device %s is unpaired.\n", args[0])
	return 0
}
