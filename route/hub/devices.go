package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/askbridge/askbridge/internal/hubkey"
	"github.com/askbridge/askbridge/internal/pairing"
	"github.com/askbridge/askbridge/internal/proctree"
	"github.com/askbridge/askbridge/internal/sockdir"
)

// Requests about the paired devices on the socket, each answered with one
// message (msgDone, or msgRefused with Error): from `askbridge hub pair`,
// `hub devices` and `hub revoke`, never from an askbridge reporting.
const (
	msgPair    = "pair"    // a new pairing code: Code, URL, Until
	msgDevices = "devices" // the paired devices: Devices
	msgRevoke  = "revoke"  // unpair device ID
	msgDone    = "done"
	msgRefused = "refused"
)

// Pairing is what the hub's socket serves about devices: the hub's paired
// devices, its page's pairing link for a code, and who may ask.
type Pairing struct {
	Devices *pairing.Devices
	URL     func(code string) string
	// Allow, when set, says whether the process on c may get a pairing
	// code or revoke a device: one inside an agent's process tree may not.
	// The socket's own checks (the same user) come first.
	Allow func(c net.Conn) error
}

// DevicesPath is where the hub keeps its paired devices: beside its
// history, in the state folder (only hashes of their sessions).
func DevicesPath() (string, error) {
	history, err := HistoryPath()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(history), "hub-devices.json"), nil
}

// Pair serves the device requests on the hub's socket with p.
func (h *Hub) Pair(p Pairing) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pairing = &p
}

// device answers a request about devices from the process on c (pid,
// as the kernel says).
func (h *Hub) device(c net.Conn, pid int, m message) message {
	h.mu.Lock()
	p := h.pairing
	h.mu.Unlock()
	if p == nil || p.Devices == nil {
		return message{Type: msgRefused, Error: "this hub pairs no devices"}
	}
	if m.Type != msgDevices {
		err := h.notAnAgent(pid)
		if err == nil && p.Allow != nil {
			err = p.Allow(c)
		}
		if err != nil {
			h.logger.Warn("hub: a pairing request was refused", "type", m.Type, "err", err)
			return message{Type: msgRefused, Error: err.Error()}
		}
	}
	switch m.Type {
	case msgPair:
		code, until := p.Devices.NewCode()
		h.logger.Info("hub: a pairing code was given on the socket") // never the code
		return message{Type: msgDone, Code: code, URL: p.URL(code), Until: &until}
	case msgDevices:
		return message{Type: msgDone, Devices: p.Devices.List()}
	default:
		if err := p.Devices.Revoke(m.ID); err != nil {
			return message{Type: msgRefused, Error: err.Error()}
		}
		h.logger.Info("hub: a device was revoked", "device", m.ID)
		return message{Type: msgDone}
	}
}

// Code is a pairing code the running hub gave.
type Code struct {
	Code, URL string
	Until     time.Time
}

// NewCode asks the hub on the socket at path for a pairing code.
func NewCode(ctx context.Context, path string) (Code, error) {
	m, err := request(ctx, path, message{Type: msgPair})
	if err != nil {
		return Code{}, err
	}
	c := Code{Code: m.Code, URL: m.URL}
	if m.Until != nil {
		c.Until = *m.Until
	}
	return c, nil
}

// Devices asks the hub on the socket at path for its paired devices.
func Devices(ctx context.Context, path string) ([]pairing.Device, error) {
	m, err := request(ctx, path, message{Type: msgDevices})
	return m.Devices, err
}

// Revoke asks the hub on the socket at path to unpair device id.
func Revoke(ctx context.Context, path, id string) error {
	_, err := request(ctx, path, message{Type: msgRevoke, ID: id})
	return err
}

// ErrNoHub is no hub answering on the socket.
var ErrNoHub = errors.New("no hub is running")

// request sends m to the hub and reads its answer.
func request(ctx context.Context, path string, m message) (message, error) {
	c, err := Dial(ctx, path, hubkey.ALPNHub)
	switch {
	case errors.Is(err, ErrRefused) || errors.Is(err, sockdir.ErrUnsafe):
		return message{}, err
	case err != nil:
		return message{}, fmt.Errorf("%w on %s (start one with askbridge hub)", ErrNoHub, path)
	}
	defer c.Close()
	if dl, ok := ctx.Deadline(); ok {
		c.SetDeadline(dl)
	}
	if err := json.NewEncoder(c).Encode(m); err != nil {
		return message{}, err
	}
	var got message
	if err := json.NewDecoder(c).Decode(&got); err != nil {
		return message{}, fmt.Errorf("the hub did not answer (%v): is it older than this askbridge?", err)
	}
	if got.Type == msgRefused {
		return got, errors.New(got.Error)
	}
	return got, nil
}

// notAnAgent refuses a process in an agent's process tree: below a
// connected askbridge (one that said hello: a request such as this one is
// none), or, on Linux, below a process of the hub's own executable, as
// the terminal inbox's check (outside) does.
func (h *Hub) notAnAgent(pid int) error {
	if pid <= 0 {
		return errors.New("the system does not say which process is asking: pair with the code on the hub's terminal")
	}
	h.mu.Lock()
	roots := map[int]bool{}
	for p := range h.peers {
		if p.inst.PID != 0 && p.inst.PeerPID > 0 {
			roots[p.inst.PeerPID] = true
		}
	}
	h.mu.Unlock()
	inside, err := proctree.Descends(pid, func(p int) bool {
		return roots[p] || p != pid && p != os.Getpid() && mayBeAskbridge(p)
	})
	switch {
	case err != nil:
		return fmt.Errorf("process %d is not known to be outside the agents' process trees (%v): it may not pair or unpair a device", pid, err)
	case inside:
		return fmt.Errorf("process %d runs below an askbridge, inside an agent's process tree: it may not pair or unpair a device", pid)
	}
	return nil
}
