package hubkey

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotAnchored is a hub key this hub did not make, nor was told to trust:
// one written by someone else (an agent on a fresh account, before
// askbridge made and hid its folders; an agent not contained) while no hub
// ran. Trusting it would hand the page, and every client, to its author.
var ErrNotAnchored = errors.New("the hub's key is not one this hub made or was told to trust")

// Anchored opens the hub's key at path (Open), and checks it against the
// record of the key askbridge made there or was last told to trust
// (Record: the public key, which Open writes when it makes one). A key
// the record does not name is refused (ErrNotAnchored, saying what to
// do) unless trust is its fingerprint: the user, having read it, said to
// trust it; it is recorded then. made says the key was made now.
//
// The record is a trust anchor only where the key's author cannot write
// it: a contained agent sees askbridge's config folder empty, and cannot
// move it away. An agent that is not contained runs as the user and can
// write both; the hub's start prints the key's fingerprint and the
// devices it trusts so that the user sees what changed.
func Anchored(path, trust string) (k *Key, made bool, err error) {
	record := Record(path)
	_, err = os.Lstat(path)
	made = errors.Is(err, os.ErrNotExist)
	if k, err = Open(path); err != nil {
		return nil, false, err
	}
	pub, fp := Format(k.Public()), Fingerprint(k.Public())
	if trust == fp {
		return k, made, writeRecord(record, pub)
	}
	if trust != "" {
		return nil, false, fmt.Errorf("--trust-key %s: the hub's key %s has fingerprint %s", trust, path, fp)
	}
	b, rerr := os.ReadFile(record)
	if rerr == nil && checkFile(record) == nil && strings.TrimSpace(string(b)) == pub {
		return k, made, nil
	}
	why := "no record of it in " + record
	if rerr == nil {
		why = record + " names another key"
	}
	return nil, false, fmt.Errorf("%w: %s (fingerprint %s; %s): if you made it, start the hub once with --trust-key %s; if not, move it away (a new key is made; clients that set $%s must take the new one)",
		ErrNotAnchored, path, fp, why, fp, Env)
}

// Record is where the record of the key at path is kept: beside it.
func Record(path string) string { return path + ".made" }

// writeRecord keeps pub as the key the hub trusts (0600, in a folder of
// this user's alone).
func writeRecord(record, pub string) error {
	dir := filepath.Dir(record)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("the hub's record of its key: %w", err)
	}
	if err := checkDir(dir); err != nil {
		return fmt.Errorf("the hub's record of its key: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".hub-key-*")
	if err != nil {
		return fmt.Errorf("the hub's record of its key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(pub + "\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), record)
	}
	if err != nil {
		return fmt.Errorf("the hub's record of its key: %w", err)
	}
	return nil
}
