package webpush

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	wp "github.com/SherClockHolmes/webpush-go"
)

// Keys are the hub's VAPID key pair, base64url (the public key an
// uncompressed P-256 point, as PushManager.subscribe takes it).
type Keys struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// LoadKeys reads the VAPID keys at path, made (0600, in a 0700 folder) the
// first time: a browser's subscription is bound to them, so they last.
func LoadKeys(path string) (Keys, error) {
	var k Keys
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(b, &k); err != nil || k.Public == "" || k.Private == "" {
			return Keys{}, fmt.Errorf("web push keys %s: not a key pair; remove the file to make new ones (paired browsers subscribe again)", path)
		}
		return k, nil
	case !errors.Is(err, os.ErrNotExist):
		return Keys{}, fmt.Errorf("web push keys: %w", err)
	}
	k.Private, k.Public, err = wp.GenerateVAPIDKeys()
	if err != nil {
		return Keys{}, fmt.Errorf("web push keys: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Keys{}, fmt.Errorf("web push keys: %w", err)
	}
	b, _ = json.Marshal(k)
	if err := writeFile(path, b); err != nil {
		return Keys{}, fmt.Errorf("web push keys: %w", err)
	}
	return k, nil
}

// writeFile replaces path with b, 0600, at once.
func writeFile(path string, b []byte) error {
	tmp := path + ".new"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Chmod(path, 0o600)
}
