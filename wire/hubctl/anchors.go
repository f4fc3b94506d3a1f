package hubctl

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/route/hub"
)

// Anchors checks the hub's trust anchors before it serves, and prints
// them: its key's fingerprint, refused when the hub did not make it nor
// was told to trust it (--trust-key), and the devices it trusts, each
// with its name, when it was paired and whether it has a passkey. A
// devices file not sealed under the key is refused, with a line, and its
// devices dropped (pairing.Open moves it aside). An error is the hub not
// starting.
func Anchors(trust string, stderr io.Writer) error {
	keyPath, err := hubkey.Path()
	if err != nil {
		return err
	}
	devicesPath, err := hub.DevicesPath()
	if err != nil {
		return err
	}
	key, made, err := hubkey.Anchored(keyPath, trust)
	if err != nil {
		return err
	}
	note := ""
	if made {
		note = ", made now"
	}
	fmt.Fprintf(stderr, "askbridge: hub key fingerprint %s (%s%s)\n", hubkey.Fingerprint(key.Public()), keyPath, note)
	devices, err := pairing.Open(devicesPath, key.Derive("hub-devices.json")) // hubserve's label
	if errors.Is(err, pairing.ErrUnsealed) {
		fmt.Fprintln(stderr, "askbridge: refused:", err)
		return nil
	}
	if err != nil {
		return err
	}
	printDevices(stderr, devices.List())
	return nil
}

// printDevices lists the devices the hub trusts, one a line, in one write.
func printDevices(out io.Writer, list []pairing.Device) {
	if len(list) == 0 {
		fmt.Fprintln(out, "askbridge: no paired device")
		return
	}
	w := &strings.Builder{}
	defer func() { io.WriteString(out, w.String()) }()
	fmt.Fprintf(w, "askbridge: paired devices, %d (askbridge hub revoke ID unpairs one):\n", len(list))
	for _, d := range list {
		passkey := "passkey"
		switch {
		case d.Passkey == nil && d.NoPasskeyApprovals:
			passkey = "no passkey, approves without one"
		case d.Passkey == nil:
			passkey = "no passkey, cannot approve"
		}
		fmt.Fprintf(w, "askbridge:   %s %q, paired %s, %s\n", d.ID, d.Name, d.Paired.Local().Format("2006-01-02 15:04"), passkey)
	}
}
