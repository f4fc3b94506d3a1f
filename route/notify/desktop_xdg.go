//go:build unix && !darwin

package notify

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/godbus/dbus/v5"
)

// nativeDesktop on Linux and the BSDs: the desktop's notification service,
// org.freedesktop.Notifications, called over the session bus, as
// notify-send would, without a process whose arguments hold the text.
func nativeDesktop() (shower, error) {
	addr := sessionBus()
	if addr == "" {
		return nil, errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus)")
	}
	return &freedesktop{addr: addr}, nil
}

// sessionBus is the session bus's address: the environment's, else the
// usual socket of a systemd login session. Never D-Bus's autolaunch, which
// would start a bus of askbridge's own that no desktop listens on.
func sessionBus() string {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		path := filepath.Join(dir, "bus")
		if st, err := os.Stat(path); err == nil && st.Mode().Type() == os.ModeSocket {
			return "unix:path=" + path
		}
	}
	return ""
}

const (
	notifyName = "org.freedesktop.Notifications"
	notifyPath = dbus.ObjectPath("/org/freedesktop/Notifications")
)

// freedesktop calls Notify on the session bus, a connection per
// notification: a desktop session that restarts its bus is no matter.
type freedesktop struct{ addr string }

func (f *freedesktop) show(ctx context.Context, title, body string) error {
	conn, err := dbus.Connect(f.addr, dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("D-Bus session bus: %w", err)
	}
	defer conn.Close()
	// The body may hold markup, so the question's own text is escaped.
	// Urgency stays normal (1): a critical notification would not expire,
	// and would linger after the question is answered elsewhere.
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}
	var id uint32
	err = conn.Object(notifyName, notifyPath).CallWithContext(ctx, notifyName+".Notify", 0,
		"askbridge", uint32(0), "", title, markupEscaper.Replace(body), []string{}, hints, int32(-1)).Store(&id)
	if err != nil {
		return fmt.Errorf("%s.Notify: %w", notifyName, err)
	}
	return nil
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
