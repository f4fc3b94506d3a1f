package pairing

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/webauthn"
)

// Device is a paired browser.
type Device struct {
	ID     string    `json:"id"`
	Name   string    `json:"name"`
	Paired time.Time `json:"paired"`
	// Hash is SHA-256 of the session's two halves: all that is kept of it.
	Hash []byte `json:"hash"`
	// RPID and Passkey are the passkey registered while pairing (the
	// page's host name, and the public key), or none.
	RPID       string               `json:"rpID,omitempty"`
	UserHandle []byte               `json:"userHandle,omitempty"`
	Passkey    *webauthn.Credential `json:"passkey,omitempty"`
	// NoPasskeyApprovals: the user chose, while pairing a device with no
	// authenticator, to let it approve without one (weaker: a stolen
	// session then approves).
	NoPasskeyApprovals bool `json:"noPasskeyApprovals,omitempty"`
}

// Session is what a paired browser holds: Cookie (HttpOnly) and Key (in
// the page's storage), both needed.
type Session struct{ Cookie, Key string }

// Devices are the paired devices and the pairing codes out.
type Devices struct {
	path string // "" keeps them in memory only
	seal []byte // the key its file is sealed with
	now  func() time.Time

	mu      sync.Mutex
	devices []*Device
	codes   codeBook    // the pairing codes out (code.go)
	revoked revokeHooks // revoked.go
}

// Memory is a set of devices for one run: the per-askbridge desk's.
func Memory() *Devices {
	return &Devices{now: time.Now}
}

// Open reads the devices kept at path (none yet when it does not exist),
// sealed with key (a key the hub's own derives: seal.go); each change is
// written back, sealed, 0600. A file whose seal does not hold is moved
// aside (path.refused) and its devices dropped: Open returns the empty
// devices and an error that is ErrUnsealed, to be logged.
func Open(path string, key []byte) (*Devices, error) {
	if len(key) == 0 {
		return nil, errors.New("the paired devices: no key to seal them with")
	}
	d := Memory()
	d.path, d.seal = path, key
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return d, nil
	case err != nil:
		return nil, fmt.Errorf("the paired devices: %w", err)
	}
	if d.devices, err = unseal(key, b); err != nil {
		d.devices = nil
		aside := path + ".refused"
		if rerr := os.Rename(path, aside); rerr != nil {
			return nil, fmt.Errorf("the paired devices %s: %w, and it cannot be moved aside: %v", path, err, rerr)
		}
		return d, fmt.Errorf("the paired devices %s: %w; its devices are dropped (pair them again), the file moved to %s", path, err, aside)
	}
	return d, os.Chmod(path, 0o600)
}

var b64 = base64.RawURLEncoding

func random(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return b64.EncodeToString(b)
}

// Add pairs a device: name as the user gave it, its passkey if any. The
// code must have been redeemed first.
func (d *Devices) Add(name, rpID string, userHandle []byte, passkey *webauthn.Credential, noPasskeyApprovals bool) (Device, Session, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = "a browser"
	}
	if len(name) > 80 {
		name = name[:80]
	}
	a, k := random(32), random(32)
	dev := &Device{ID: random(6), Name: name, Paired: d.now().UTC().Truncate(time.Second), Hash: hash(a, k), Passkey: passkey, NoPasskeyApprovals: noPasskeyApprovals && passkey == nil}
	if passkey != nil {
		dev.RPID, dev.UserHandle = rpID, userHandle
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.devices = append(d.devices, dev)
	if err := d.save(); err != nil {
		d.devices = d.devices[:len(d.devices)-1]
		return Device{}, Session{}, err
	}
	return *dev, Session{Cookie: dev.ID + "." + a, Key: k}, nil
}

func hash(a, k string) []byte {
	h := sha256.Sum256([]byte("askbridge session\n" + a + "\n" + k))
	return h[:]
}

// Check is the device whose session s is.
func (d *Devices) Check(s Session) (Device, bool) {
	id, a, ok := strings.Cut(s.Cookie, ".")
	if !ok || s.Key == "" {
		return Device{}, false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dev := range d.devices {
		if dev.ID == id && subtle.ConstantTimeCompare(dev.Hash, hash(a, s.Key)) == 1 {
			return *dev, true
		}
	}
	return Device{}, false
}

// Get is device id.
func (d *Devices) Get(id string) (Device, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dev := range d.devices {
		if dev.ID == id {
			return *dev, true
		}
	}
	return Device{}, false
}

// List is the devices paired, oldest first, without their hashes.
func (d *Devices) List() []Device {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := []Device{}
	for _, dev := range d.devices {
		c := *dev
		c.Hash = nil
		out = append(out, c)
	}
	return out
}

// Revoke unpairs device id: its session and passkey stop working at once.
func (d *Devices) Revoke(id string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := slices.IndexFunc(d.devices, func(dev *Device) bool { return dev.ID == id })
	if i < 0 {
		return fmt.Errorf("%w %q", errNoDevice, id)
	}
	gone := d.devices[i]
	d.devices = slices.Delete(d.devices, i, i+1)
	if err := d.save(); err != nil {
		d.devices = slices.Insert(d.devices, i, gone)
		return err
	}
	d.revoked.run(id)
	return nil
}

// Used records a passkey's use (its signature counter).
func (d *Devices) Used(id string, passkey webauthn.Credential) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dev := range d.devices {
		if dev.ID == id && dev.Passkey != nil {
			dev.Passkey.Authenticator = passkey.Authenticator
			d.save()
		}
	}
}

// save writes the devices, when kept in a file; d.mu held.
func (d *Devices) save() error {
	if d.path == "" {
		return nil
	}
	b, err := seal(d.seal, d.devices)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(d.path), 0o700); err != nil {
		return fmt.Errorf("keeping the paired devices: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(d.path), ".devices-*")
	if err != nil {
		return fmt.Errorf("keeping the paired devices: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), d.path)
	}
	if err != nil {
		return fmt.Errorf("keeping the paired devices: %w", err)
	}
	return nil
}
