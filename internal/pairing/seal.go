package pairing

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrUnsealed is a devices file that does not carry the seal of the key it
// was opened with (an edit, another hub's file, or one written before
// files were sealed): its devices are dropped, never trusted, since
// whoever wrote it could have added a device of their own, passkey and
// all, that would approve.
var ErrUnsealed = errors.New("the paired devices file is not sealed by this hub's key")

// sealVersion is the sealed file's format: {"version":2,"devices":[…],
// "mac":"…"}, the MAC HMAC-SHA256 of the devices exactly as written.
const sealVersion = 2

type sealedFile struct {
	Version int             `json:"version"`
	Devices json.RawMessage `json:"devices"`
	MAC     string          `json:"mac"`
}

func mac(key, devices []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("askbridge devices v2\n"))
	m.Write(devices)
	return m.Sum(nil)
}

// seal writes devices sealed with key.
func seal(key []byte, devices []*Device) ([]byte, error) {
	raw, err := json.Marshal(devices)
	if err != nil {
		return nil, err
	}
	return json.Marshal(sealedFile{Version: sealVersion, Devices: raw, MAC: base64.RawStdEncoding.EncodeToString(mac(key, raw))})
}

// unseal reads what seal wrote, if key sealed it.
func unseal(key, b []byte) ([]*Device, error) {
	var f sealedFile
	if err := json.Unmarshal(b, &f); err != nil || f.Version != sealVersion {
		return nil, fmt.Errorf("%w: it is not a sealed file", ErrUnsealed)
	}
	got, err := base64.RawStdEncoding.DecodeString(f.MAC)
	if err != nil || !hmac.Equal(got, mac(key, f.Devices)) {
		return nil, fmt.Errorf("%w: it was changed since the hub wrote it", ErrUnsealed)
	}
	var devices []*Device
	if err := json.Unmarshal(f.Devices, &devices); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnsealed, err)
	}
	return devices, nil
}
