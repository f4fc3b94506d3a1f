package hubkey

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
)

// Env gives the hub's public key explicitly: on a machine that reaches a
// hub elsewhere (an SSH-forwarded socket), as `askbridge hub key` prints
// it there.
const Env = "ASKBRIDGE_HUB_KEY"

// Trusted is the hub key this user's clients trust: $ASKBRIDGE_HUB_KEY,
// else the public half the hub keeps beside its key on this machine. No
// key at all (no hub ever started here) is an error that says what to do:
// a client never takes a key from whatever answers on the socket.
func Trusted() (ed25519.PublicKey, error) {
	if s := os.Getenv(Env); s != "" {
		pub, err := Parse(s)
		if err != nil {
			return nil, fmt.Errorf("$%s: %w", Env, err)
		}
		return pub, nil
	}
	path, err := Path()
	if err != nil {
		return nil, err
	}
	path += ".pub"
	if err := checkFile(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no hub key to trust (%s): start askbridge hub on this machine once, or set $%s to what askbridge hub key prints on the hub's machine", path, Env)
		}
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pub, err := Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pub, nil
}
