package hubkey

import (
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Key is the hub's key pair.
type Key struct{ priv ed25519.PrivateKey }

// header starts the private key's file.
const header = "askbridge hub key v1\n"

// prefix starts a public key as askbridge writes it.
const prefix = "ed25519:"

// Path is where the hub keeps its key: hub-key in askbridge's config
// folder (os.UserConfigDir: $XDG_CONFIG_HOME, ~/.config, ~/Library/
// Application Support, %AppData%).
func Path() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no folder for the hub's key (%v): set XDG_CONFIG_HOME", err)
	}
	return filepath.Join(dir, "askbridge", "hub-key"), nil
}

// Open reads the hub's key at path, or makes one there when there is
// none (the folder 0700 and the file 0600). A folder or file another user
// could read or replace is refused, as is a file that is not a key.
func Open(path string) (*Key, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the hub's key: %w", err)
	}
	if err := checkDir(dir); err != nil {
		return nil, fmt.Errorf("the hub's key: %w", err)
	}
	k, err := read(path)
	if errors.Is(err, os.ErrNotExist) {
		k, err = create(path)
	}
	if err != nil {
		return nil, err
	}
	return k, writePublic(path+".pub", k.Public())
}

func read(path string) (*Key, error) {
	if err := checkFile(path); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	body, ok := strings.CutPrefix(string(b), header)
	seed, derr := base64.StdEncoding.DecodeString(strings.TrimSpace(body))
	if !ok || derr != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("the hub's key %s is not one askbridge wrote: move it away to make a new one (every client must then trust the new key)", path)
	}
	return &Key{priv: ed25519.NewKeyFromSeed(seed)}, nil
}

// create writes a new key at path, never over one: two hubs starting at
// once keep the first; and records it as made here (Anchored).
func create(path string) (*Key, error) {
	seed := make([]byte, ed25519.SeedSize)
	rand.Read(seed)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return read(path)
	}
	if err != nil {
		return nil, fmt.Errorf("the hub's key: %w", err)
	}
	_, err = f.WriteString(header + base64.StdEncoding.EncodeToString(seed) + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("the hub's key: %w", err)
	}
	k := &Key{priv: ed25519.NewKeyFromSeed(seed)}
	return k, writeRecord(Record(path), Format(k.Public()))
}

// writePublic keeps the public half where this machine's clients read it.
func writePublic(path string, pub ed25519.PublicKey) error {
	want := Format(pub) + "\n"
	if b, err := os.ReadFile(path); err == nil && string(b) == want && checkFile(path) == nil {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".hub-key-*")
	if err != nil {
		return fmt.Errorf("the hub's public key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(want)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o600)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("the hub's public key: %w", err)
	}
	return nil
}

// Public is the key's public half.
func (k *Key) Public() ed25519.PublicKey { return k.priv.Public().(ed25519.PublicKey) }

// Derive is a secret for one use (label), derived from the private key:
// HMAC-SHA256 of the label under the seed.
func (k *Key) Derive(label string) []byte {
	m := hmac.New(sha256.New, k.priv.Seed())
	m.Write([]byte("askbridge hub key derive v1\n" + label))
	return m.Sum(nil)
}

// Format writes a public key as askbridge prints and reads it:
// ed25519:BASE64URL.
func Format(pub ed25519.PublicKey) string {
	return prefix + base64.RawURLEncoding.EncodeToString(pub)
}

// Parse reads a public key Format wrote (the prefix may be left out).
func Parse(s string) (ed25519.PublicKey, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(strings.TrimSpace(s), prefix))
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%q is not a hub key (ed25519:… as askbridge hub key prints it)", s)
	}
	return ed25519.PublicKey(b), nil
}

// Fingerprint names a public key in a log line: the first 8 bytes of its
// SHA-256, in hex.
func Fingerprint(pub ed25519.PublicKey) string {
	h := sha256.Sum256(pub)
	return hex.EncodeToString(h[:8])
}

// Generate is a key of this run only, kept nowhere: the per-askbridge
// desk's, whose paired devices end with the run too.
func Generate() *Key {
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	return &Key{priv: priv}
}
