package hubctl

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/route/hub"
	"github.com/askbridge/askbridge/wire/hubserve"
)

// timeout bounds a command's talk with the running hub.
const timeout = 5 * time.Second

// Pair has the running hub make a pairing code, and prints it with its
// link.
func Pair(w io.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := hub.NewCode(ctx, hub.SocketPath())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Pairing code %s, good once until %s: type it at %s, or open %s\n",
		c.Code, c.Until.Local().Format("15:04:05"), hubserve.PageOf(c.URL), c.URL)
	return nil
}

// Devices lists the running hub's paired devices, and how each approves.
func Devices(w io.Writer) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	list, err := hub.Devices(ctx, hub.SocketPath())
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(w, "No device is paired: askbridge hub pair prints a code to pair one.")
	}
	for _, d := range list {
		how := "questions only"
		switch {
		case d.Passkey != nil:
			how = "passkey (" + d.RPID + ")"
		case d.NoPasskeyApprovals:
			how = "approves without a passkey"
		}
		fmt.Fprintf(w, "%s  %-24s  paired %s  %s\n", d.ID, d.Name, d.Paired.Local().Format("2006-01-02 15:04"), how)
	}
	return nil
}

// Revoke has the running hub unpair device id.
func Revoke(w io.Writer, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := hub.Revoke(ctx, hub.SocketPath(), id); err != nil {
		return err
	}
	fmt.Fprintf(w, "Device %s is unpaired.\n", id)
	return nil
}

// Key prints the hub's public key, made now if no hub has started yet, for
// a machine that reaches this hub through an SSH-forwarded socket to trust
// ($ASKBRIDGE_HUB_KEY there).
func Key(w io.Writer) error {
	path, err := hubkey.Path()
	if err != nil {
		return err
	}
	k, err := hubkey.Open(path)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, hubkey.Format(k.Public()))
	return nil
}
